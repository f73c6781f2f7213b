package checks;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import lib.Target;

/** Clients a check opens together, closed together however the check ends: {@code try (Clients all = new Clients(target))}. */
final class Clients implements AutoCloseable, Iterable<Client> {
    private final Target target;
    private final List<Client> clients = new ArrayList<>();

    /** Clients of the server {@code target}. */
    Clients(Target target) {
        this.target = target;
    }

    /** Keeps {@code client} to close it with the others; returns it. */
    Client add(Client client) {
        clients.add(client);
        return client;
    }

    /** Opens {@code n} connections with the given read timeout. */
    Clients connect(int n, int readTimeoutMs) throws IOException {
        for (int i = 0; i < n; i++) add(Client.connect(target, readTimeoutMs));
        return this;
    }

    /** Opens {@code n} connections at once, from as many virtual threads, with the given read timeout. */
    Clients connectAtOnce(int n, int readTimeoutMs) throws Exception {
        List<java.util.concurrent.Future<Client>> opened = new ArrayList<>();
        try (var pool = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < n; i++) opened.add(pool.submit(() -> Client.connect(target, readTimeoutMs)));
        }
        for (var f : opened) add(f.get());
        return this;
    }

    /** Sends {@code raw} on every connection. */
    Clients sendAll(String raw) throws IOException {
        for (Client c : clients) c.send(raw);
        return this;
    }

    /**
     * Reads one answer on each connection in turn, all of them within {@code budgetMs} from now;
     * returns those that came, stopping at the first that had not come when the budget ran out.
     */
    List<Client.Reply> readWithin(long budgetMs) throws IOException {
        Elapsed reading = Elapsed.start();
        List<Client.Reply> replies = new ArrayList<>();
        for (Client c : clients) {
            long left = budgetMs - reading.ms();
            if (left <= 0) break;
            c.socket().setSoTimeout((int) left);
            try {
                replies.add(c.read());
            } catch (Client.NoAnswer e) {
                break;
            }
        }
        return replies;
    }

    /** Whether bytes of an answer have arrived on any of them, without waiting. */
    boolean anyAnswered() throws IOException {
        for (Client c : clients) if (c.answered()) return true;
        return false;
    }

    Client get(int i) {
        return clients.get(i);
    }

    int size() {
        return clients.size();
    }

    @Override
    public Iterator<Client> iterator() {
        return clients.iterator();
    }

    @Override
    public void close() throws IOException {
        for (Client c : clients) c.close();
    }
}
