package room;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * The room's identity on the network: a key and a self-made certificate it makes at its first
 * start and keeps in its folder ({@code .tls.p12}, owner-only), so a restart, or a new address
 * for the laptop, keeps them. Learners reach it over TLS, and their copy trusts the room whose
 * certificate has the {@link #pin} the Join line gives, and no other: no certificate authority
 * takes part, and a machine that answers at the room's address with another key is told apart
 * before the learners' code or a token leaves the laptop.
 */
public final class RoomTls {
    static final String FILE = ".tls.p12";
    /** The key store's password: the file is owner-only, and a password kept beside it would guard nothing more. */
    private static final char[] PASSWORD = "course-room".toCharArray();
    private static final String ALIAS = "room";
    /** Crockford's base 32: no I, L, O or U, so what the learner types from the screen reads one way. */
    private static final String DIGITS = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

    /** The server's side: the context the room's HTTPS server takes, and the pin of its certificate. */
    public record Kept(SSLContext context, String pin) {}

    private RoomTls() {}

    /** The room's key in {@code dir}: the kept one, else a new one made with the JDK's keytool and kept. */
    public static Kept kept(Path dir) throws IOException {
        Path file = dir.resolve(FILE);
        if (!Files.isRegularFile(file)) make(file);
        try (InputStream in = Files.newInputStream(file)) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, PASSWORD);
            KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(store, PASSWORD);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys.getKeyManagers(), null, null);
            return new Kept(context, pin((X509Certificate) store.getCertificate(ALIAS)));
        } catch (GeneralSecurityException | IOException e) {
            throw new IOException("the room's key in " + file + " cannot be read (" + e.getMessage() + "): delete it, and the room makes a new one"
                    + " (learners then hand in once more with the new --pin)", e);
        }
    }

    /** Makes a key and a certificate with the keytool beside this JVM (an EC key, good for ten years: the pin, not the date, is what learners trust). */
    private static void make(Path file) throws IOException {
        Path bin = Path.of(System.getProperty("java.home"), "bin");
        Path keytool = Files.isExecutable(bin.resolve("keytool")) ? bin.resolve("keytool") : bin.resolve("keytool.exe");
        if (!Files.isExecutable(keytool)) {
            throw new IOException("no keytool in " + bin + ": the room makes its key with the JDK's keytool; run it on a full JDK 25 (jbang uses one by default)");
        }
        // Made in a folder only its owner can open, then moved into place whole.
        Path folder = Files.createTempDirectory(file.getParent(), ".tls-");
        Path aside = folder.resolve(FILE);
        RoomLink.ownerOnly(folder, "rwx------");
        Process p = new ProcessBuilder(keytool.toString(), "-genkeypair", "-alias", ALIAS, "-keyalg", "EC", "-groupname", "secp256r1",
                "-dname", "CN=course room", "-validity", "3650", "-storetype", "PKCS12", "-keystore", aside.toString(),
                "-storepass", new String(PASSWORD), "-keypass", new String(PASSWORD), "-noprompt")
                .redirectErrorStream(true).start();
        try {
            String said = new String(p.getInputStream().readAllBytes()).strip();
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0 || !Files.isRegularFile(aside)) {
                throw new IOException("keytool could not make the room's key: " + said);
            }
            RoomLink.ownerOnly(aside, "rw-------");
            Files.move(aside, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while keytool made the room's key");
        } finally {
            p.destroyForcibly();
            Files.deleteIfExists(aside);
            Files.deleteIfExists(folder);
        }
    }

    /**
     * A certificate's pin: the first 80 bits of the SHA-256 of its encoding, in Crockford's base
     * 32, in four groups of four (such as {@code 7XQ4-M2KD-9RTA-PL3E}). Making another key whose
     * pin is the same takes about 2^80 tries: not a morning's work, nor a year's.
     */
    static String pin(X509Certificate certificate) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded());
            StringBuilder pin = new StringBuilder();
            for (int i = 0; i < 16; i++) { // 16 digits of 5 bits
                int bit = i * 5, value = 0;
                for (int b = 0; b < 5; b++) value = value << 1 | (hash[(bit + b) / 8] >> (7 - (bit + b) % 8) & 1);
                if (i > 0 && i % 4 == 0) pin.append('-');
                pin.append(DIGITS.charAt(value));
            }
            return pin.toString();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A pin as typed, in its one spelling: upper case, groups of four; O read as 0, I and L as 1; null when it is no pin. */
    public static String plainPin(String typed) {
        if (typed == null) return null;
        String digits = typed.toUpperCase(Locale.ROOT).replaceAll("[\\s-]", "").replace('O', '0').replace('I', '1').replace('L', '1');
        if (digits.length() != 16 || !digits.chars().allMatch(c -> DIGITS.indexOf(c) >= 0)) return null;
        return digits.substring(0, 4) + "-" + digits.substring(4, 8) + "-" + digits.substring(8, 12) + "-" + digits.substring(12);
    }

    /** A room that answered with a certificate of another pin: not the instructor's. */
    static final class OtherRoom extends CertificateException {
        final String shown;

        OtherRoom(String shown, String expected) {
            super("the machine at that address showed pin " + shown + ", not " + expected);
            this.shown = shown;
        }
    }

    /** The learner's side: a context that trusts only a certificate with {@code pin}. */
    public static SSLContext pinned(String pin) {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[] {new Pinned(pin)}, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Trusts the one certificate whose pin is the one given. An extended trust manager, so the
     * JDK adds no check of its own: the room's name or address is not in its certificate (the
     * address may change during the day), and the pin says more than either.
     */
    private static final class Pinned extends X509ExtendedTrustManager {
        private final String pin;

        Pinned(String pin) {
            this.pin = pin;
        }

        private void check(X509Certificate[] chain) throws CertificateException {
            if (chain == null || chain.length == 0) throw new CertificateException("the room showed no certificate");
            String shown = pin(chain[0]);
            if (!shown.equals(pin)) throw new OtherRoom(shown, pin);
        }

        @Override public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException { check(chain); }
        @Override public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException { check(chain); }
        @Override public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException { check(chain); }
        @Override public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException { throw new CertificateException("not a server"); }
        @Override public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException { throw new CertificateException("not a server"); }
        @Override public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException { throw new CertificateException("not a server"); }
        @Override public X509Certificate[] getAcceptedIssuers() { return new X509Certificate[0]; }
    }

    /** Whether {@code e}, or what caused it, is a room of another pin. */
    static OtherRoom otherRoom(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof OtherRoom other) return other;
        }
        return null;
    }
}
