package room;

import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Who holds or asks for which name in a live room, kept in its folder so a restart keeps it all:
 * <ul>
 * <li>{@code .owners/NAME}: the SHA-256 of the token of a name taken (its laptop's);</li>
 * <li>{@code .waiting/NAME}: a name a laptop on the network asked for and the instructor has not
 *     let in yet: the SHA-256 of its token, the laptop's address and since when;</li>
 * <li>{@code .claims/NAME}: the laptop (its {@link #laptop} address) that first asked for NAME,
 *     so the names one laptop may ask for ({@link #PER_LAPTOP}) are counted across restarts.</li>
 * </ul>
 * A room on the network lets a new name in only when the instructor says so on its page (one
 * click, or one for all who wait): a machine on the Wi-Fi that is not in the room can ask, but
 * takes no seat, and a flood of names waits, counted and bounded, where the instructor turns it
 * away at once.
 */
public final class Claims {
    /** New names one laptop may ask for (a learner, and a second name for a pair); loopback is not limited. */
    public static final int PER_LAPTOP = 3;
    /** Names that may wait at once; past it, a new name is told to ask the instructor, who turns the waiting away in one click. */
    static final int MAX_WAITING = 200;

    /** A name waiting to be let in: who asked, from where, since when. */
    public record Waiting(String name, String from, Instant since) {}

    private Claims() {}

    /**
     * The laptop an address stands for: an IPv4 address itself; an IPv6 address's /64, which is
     * one network's and which one machine can fill with as many addresses as it likes.
     */
    public static String laptop(InetAddress address) {
        if (!(address instanceof Inet6Address)) return address.getHostAddress();
        byte[] b = address.getAddress();
        StringBuilder prefix = new StringBuilder();
        for (int i = 0; i < 8; i += 2) prefix.append(Integer.toHexString((b[i] & 0xff) << 8 | (b[i + 1] & 0xff))).append(':');
        return prefix + ":/64";
    }

    static Path owner(Path dir, String name) {
        return dir.resolve(".owners").resolve(RoomLink.key(name));
    }

    public static Path waiting(Path dir, String name) {
        return dir.resolve(".waiting").resolve(RoomLink.key(name));
    }

    private static Path claim(Path dir, String name) {
        return dir.resolve(".claims").resolve(RoomLink.key(name));
    }

    /** Names {@code laptop} asked for in this room, since it began (restarts, names let in or turned away, all counted). */
    static int askedBy(Path dir, String laptop) throws IOException {
        Path claims = dir.resolve(".claims");
        if (!Files.isDirectory(claims)) return 0;
        int n = 0;
        try (Stream<Path> files = Files.list(claims)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                if (Files.readString(f, StandardCharsets.UTF_8).strip().equals(laptop)) n++;
            }
        }
        return n;
    }

    /** Counts {@code name} as asked for by {@code laptop}, once: a name freed and asked for again counts for its first laptop. */
    static void asked(Path dir, String name, String laptop) throws IOException {
        Files.createDirectories(dir.resolve(".claims"));
        try {
            Files.writeString(claim(dir, name), laptop + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        } catch (FileAlreadyExistsException e) {
            // counted already
        }
    }

    /** Whether {@code name} was asked for before (so asking again costs its laptop nothing). */
    static boolean askedBefore(Path dir, String name) {
        return Files.exists(claim(dir, name));
    }

    /** Keeps {@code name} waiting for the laptop whose token hashes to {@code hash}; false when another laptop's claim got there first. */
    static boolean wait(Path dir, String name, String hash, String from, Instant now) throws IOException {
        Files.createDirectories(dir.resolve(".waiting"));
        try {
            Files.writeString(waiting(dir, name), hash + "\n" + from + "\n" + now + "\n", StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            return true;
        } catch (FileAlreadyExistsException e) {
            return false;
        }
    }

    /** The hash of the token that waits for {@code name}, or null when no laptop waits for it. */
    static String waitingHash(Path dir, String name) throws IOException {
        Path f = waiting(dir, name);
        if (!Files.isRegularFile(f)) return null;
        List<String> lines = Files.readAllLines(f, StandardCharsets.UTF_8);
        return lines.isEmpty() ? "" : lines.get(0).strip();
    }

    /** How many names wait, without reading their files. */
    static long waitingCount(Path dir) throws IOException {
        Path folder = dir.resolve(".waiting");
        if (!Files.isDirectory(folder)) return 0;
        try (Stream<Path> files = Files.list(folder)) {
            return files.count();
        }
    }

    /** Every name waiting, the longest-waiting first. */
    public static List<Waiting> waiting(Path dir) throws IOException {
        Path folder = dir.resolve(".waiting");
        List<Waiting> found = new ArrayList<>();
        if (!Files.isDirectory(folder)) return found;
        try (Stream<Path> files = Files.list(folder)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                String name = f.getFileName().toString();
                if (!RoomLink.plainName(name)) continue;
                List<String> lines = Files.readAllLines(f, StandardCharsets.UTF_8);
                Instant since;
                try {
                    since = Instant.parse(lines.get(2).strip());
                } catch (RuntimeException e) {
                    since = Instant.EPOCH;
                }
                found.add(new Waiting(name, lines.size() > 1 ? lines.get(1).strip() : "?", since));
            }
        }
        found.sort(Comparator.comparing(Waiting::since).thenComparing(Waiting::name));
        return found;
    }

    /** Lets {@code name} in: its waiting laptop's token now holds it. False when no one waits for it, or the name was taken meanwhile. */
    static boolean letIn(Path dir, String name) throws IOException {
        String hash = waitingHash(dir, name);
        if (hash == null) return false;
        Files.createDirectories(dir.resolve(".owners"));
        try {
            Files.writeString(owner(dir, name), hash, StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        } catch (FileAlreadyExistsException e) {
            Files.deleteIfExists(waiting(dir, name));
            return false;
        }
        Files.deleteIfExists(waiting(dir, name));
        return true;
    }

    /** Turns {@code name}'s waiting laptop away: the name is free again, and still counts against that laptop. */
    static boolean turnAway(Path dir, String name) throws IOException {
        return Files.deleteIfExists(waiting(dir, name));
    }
}
