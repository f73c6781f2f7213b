///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25
//DEPS com.fasterxml.jackson.core:jackson-databind:2.22.4
//SOURCES ../lib/Outcomes.java Trees.java Commands.java ../lib/Chapters.java ../lib/Jackson.java ../site/Pages.java ../site/Rehearsal.java

package test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import lib.Chapters;
import lib.Outcomes;
import site.Pages;
import site.Rehearsal;

/**
 * The site, built and checked against its sources: it builds with no warning into OUT
 * (scripts/site.sh build); every {@code include::{reporoot}/FILE[tag=T]} in a page shows up, as
 * text, in that page's HTML; every page a check's hint points to ({@code @Check(see =
 * "chapters/03-reactor#closing")}, in scripts/checks/) has that anchor; no page refers to another
 * host; the packed site (scripts/site.sh pack) links from page to page by file; and a copy of
 * the course whose page includes a missing tag fails the build, naming the tag; every link from
 * page to page lands on a page and a section that exist; and every chapter page fits its slot
 * (scripts/site/Pages.java: its words, its steps by line 120, no history, a picture), as every
 * deeper page tells no history.
 * Usage: SiteTest ROOT OUT. One ok/FAIL line per test, then "N passed, N failed".
 */
class SiteTest {
    static final Pattern INCLUDE = Pattern.compile("include::\\{reporoot}/([^\\[]+)\\[(?:[^\\]]*?)tags?=([^,\\]]+)[^\\]]*]");
    /** What makes a browser fetch from another host on load: src=, <link href=>, srcset (links to read later are fine). */
    static final Pattern EXTERNAL = Pattern.compile(
            "(?:\\bsrc(?:set)?=|<link\\b[^>]*\\bhref=)\"(?:https?:)?//(?!127\\.0\\.0\\.1|localhost)[^\"]*\"");

    /** A check's link to the page that teaches the fix: {@code see = "PAGE#ANCHOR"}. */
    static final Pattern SEE = Pattern.compile("\\bsee\\s*=\\s*\"([a-z0-9/_-]+)(?:#([a-z0-9_-]+))?\"");

    static final Outcomes outcomes = new Outcomes("");

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args[0]).toAbsolutePath().normalize();
        Path site = Path.of(args[1]).toAbsolutePath().normalize();
        Path work = Files.createTempDirectory("site-test");
        try {
            String built = run(work.resolve("build.log"), Map.of(), root.resolve("scripts/site.sh").toString(), "build", site.toString());
            outcomes.record("the site builds with no warnings", built == null, built);
            if (built != null) {
                System.exit(outcomes.end());
                return;
            }
            List<String> problems = content(root, site);
            problems.forEach(p -> System.out.println("      " + p));
            outcomes.record("every page shows the code it includes, its hints' sections exist, and it links to no other host",
                    problems.isEmpty(), problems.size() + " problem(s), listed above");
            List<String> broken = anchors(site);
            broken.forEach(p -> System.out.println("      " + p));
            outcomes.record("every link from page to page lands on a page and a section that exist", broken.isEmpty(),
                    broken.size() + " link(s) lead nowhere, listed above");
            outcomes.record("a link to a section that does not exist is found", brokenAnchorFound(work), "a link to b/#nowhere was not reported");
            List<String> unfit = agendas(root);
            unfit.forEach(p -> System.out.println("      " + p));
            outcomes.record("every slot of each agenda holds its rehearsal (site/measured/rehearsal.json, current): reading, writing and grading its core TODOs, its measured runs, its demo and a buffer",
                    unfit.isEmpty(), unfit.size() + " problem(s), listed above");
            outcomes.record("a slot too short for its chapter is found", shortSlotFound(root, work), "05's half-day slot cut to 15 minutes was not reported, or its stale rehearsal was not");
            List<String> over = slots(root);
            over.forEach(p -> System.out.println("      " + p));
            outcomes.record("every chapter page fits its slot (words, steps by line " + Pages.STEPS_BY + ", a picture) and no page tells history",
                    over.isEmpty(), over.size() + " page(s) over, listed above");
            pack(root, site, work);
            served(root, work);
            brokenCopy(root, work);
        } finally {
            Trees.delete(work);
        }
        System.exit(outcomes.end());
    }

    /** What the built site lacks against its sources, one line each. */
    static List<String> content(Path root, Path site) throws IOException {
        List<String> problems = new ArrayList<>();
        try (Stream<Path> pages = Files.walk(root.resolve("site/content"))) {
            for (Path page : pages.filter(p -> p.toString().endsWith(".adoc")).toList()) {
                String source = Files.readString(page);
                Path html = htmlFor(root.resolve("site/content").relativize(page), site);
                if (!Files.exists(html)) {
                    problems.add(page + ": no built page at " + html);
                    continue;
                }
                String built = unescape(Files.readString(html).replaceAll("<[^>]+>", ""));
                Matcher m = INCLUDE.matcher(source);
                while (m.find()) {
                    String line = firstCodeLine(root.resolve(m.group(1)), m.group(2));
                    if (line == null) problems.add(page + ": tag '" + m.group(2) + "' not found in " + m.group(1));
                    else if (!built.contains(line)) problems.add(page + ": the built page lacks '" + line + "' from " + m.group(1) + "[tag=" + m.group(2) + "]");
                }
            }
        }
        try (Stream<Path> checks = Files.list(root.resolve("scripts/checks"))) {
            for (Path file : checks.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                Matcher m = SEE.matcher(Files.readString(file));
                while (m.find()) {
                    Path html = site.resolve(m.group(1)).resolve("index.html");
                    if (!Files.exists(html)) problems.add(file.getFileName() + ": a hint points to " + m.group(1) + ", which the site does not have");
                    else if (m.group(2) != null && !Files.readString(html).contains("id=\"" + m.group(2) + "\"")) {
                        problems.add(file.getFileName() + ": a hint points to " + m.group(1) + "#" + m.group(2) + ", and that page has no such section");
                    }
                }
            }
        }
        try (Stream<Path> files = Files.walk(site)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".html") || p.toString().endsWith(".css")).toList()) {
                Matcher m = EXTERNAL.matcher(Files.readString(f));
                while (m.find()) problems.add(site.relativize(f) + " refers to another host: " + m.group());
                if (f.toString().endsWith(".css") && Files.readString(f).matches("(?s).*url\\(\\s*['\"]?(https?:)?//.*")) {
                    problems.add(site.relativize(f) + " loads a URL from another host");
                }
            }
        }
        return problems;
    }

    /** A link in a built page: its href (relative, or #anchor on the page itself). */
    static final Pattern HREF = Pattern.compile("<a\\b[^>]*\\bhref=\"([^\":]*?)\"");

    /**
     * Every link of the built site from one page to another (or to a section of itself) whose page
     * or section does not exist, one line each: a section moved to another page shows up here.
     */
    static List<String> anchors(Path site) throws IOException {
        List<String> broken = new ArrayList<>();
        Map<Path, String> read = new java.util.HashMap<>();
        try (Stream<Path> files = Files.walk(site)) {
            for (Path page : files.filter(p -> p.getFileName().toString().equals("index.html")).sorted().toList()) {
                String html = read.computeIfAbsent(page, SiteTest::slurp);
                Matcher m = HREF.matcher(html);
                while (m.find()) {
                    String href = unescape(m.group(1));
                    int hash = href.indexOf('#');
                    String path = hash < 0 ? href : href.substring(0, hash);
                    String anchor = hash < 0 ? "" : href.substring(hash + 1);
                    if (path.isEmpty() && anchor.isEmpty()) continue;
                    Path target = path.isEmpty() ? page : page.getParent().resolve(path).normalize();
                    if (Files.isDirectory(target)) target = target.resolve("index.html");
                    if (!target.startsWith(site) || !Files.isRegularFile(target)) {
                        broken.add(site.relativize(page) + ": " + href + " (no such page)");
                    } else if (!anchor.isEmpty() && target.toString().endsWith(".html")
                            && !read.computeIfAbsent(target, SiteTest::slurp).contains("id=\"" + anchor + "\"")) {
                        broken.add(site.relativize(page) + ": " + href + " (no such section)");
                    }
                }
            }
        }
        return broken;
    }

    /** The link check must be able to fail: two pages, one linking to a section the other lacks. */
    static boolean brokenAnchorFound(Path work) throws IOException {
        Path tiny = work.resolve("tiny-site");
        Files.createDirectories(tiny.resolve("a"));
        Files.createDirectories(tiny.resolve("b"));
        Files.writeString(tiny.resolve("a/index.html"), "<a href=\"../b/#here\">fine</a> <a class=\"x\" href=\"../b/#nowhere\">gone</a>");
        Files.writeString(tiny.resolve("b/index.html"), "<h2 id=\"here\">Here</h2>");
        List<String> found = anchors(tiny);
        return found.size() == 1 && found.getFirst().contains("#nowhere");
    }

    static String slurp(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * Every slot of an agenda shorter than its rehearsed need (scripts/site/Rehearsal.java), one
     * line each; and, first, a committed site/measured/rehearsal.json that is not what the
     * rehearsal computes from the committed pages, agendas and runs.
     */
    static List<String> agendas(Path root) throws IOException {
        List<String> unfit = new ArrayList<>();
        String committed = Files.exists(root.resolve(Rehearsal.FILE)) ? Files.readString(root.resolve(Rehearsal.FILE)) : "";
        List<Rehearsal.Plan> plans = Rehearsal.plans(root);
        if (!committed.equals(Rehearsal.text(plans))) {
            unfit.add(Rehearsal.FILE + " is not what the pages, the agendas and the runs measured give now: run jbang scripts/site/Rehearsal.java, and commit it");
        }
        unfit.addAll(Rehearsal.unfit(plans));
        return unfit;
    }

    /** The agenda check must be able to fail: a copy of the registry whose half day gives chapter 05 15 minutes (and its rehearsal redone). */
    static boolean shortSlotFound(Path root, Path work) throws IOException {
        Path copy = work.resolve("short-slot");
        for (String part : List.of("site/data", "site/measured", "site/content")) Trees.copy(root.resolve(part), copy.resolve(part));
        Path registry = copy.resolve(Chapters.FILE);
        String text = Files.readString(registry);
        String cut = text.replaceFirst("(\"half-day\": \\{\"minutes\": )55(, \"learners\": \"A virtual thread)", "$115$2");
        if (cut.equals(text)) return false;
        Files.writeString(registry, cut);
        boolean stale = agendas(copy).stream().anyMatch(u -> u.contains("is not what the pages"));
        Files.writeString(copy.resolve(Rehearsal.FILE), Rehearsal.text(Rehearsal.plans(copy)));
        List<String> found = agendas(copy);
        return stale && found.size() == 1 && found.getFirst().startsWith("half-day, 05 Virtual threads: 15 minutes");
    }

    /** Every chapter page over its slot, and every deeper page that tells history, one line each. */
    static List<String> slots(Path root) throws IOException {
        List<String> over = new ArrayList<>();
        for (Chapters.Chapter c : Chapters.read(root).values()) {
            Path page = root.resolve("site/content/chapters/" + c.slug() + ".adoc");
            Pages measured = Pages.measure(page, c.todos().isEmpty() ? 0 : c.minutes());
            measured.overs().forEach(o -> over.add("chapters/" + c.slug() + ".adoc: " + o));
            Path deeper = root.resolve("site/content/deeper/" + c.slug() + ".adoc");
            if (Files.exists(deeper)) {
                Pages.measure(deeper, 0).history().stream().findFirst()
                        .ifPresent(h -> over.add("deeper/" + c.slug() + ".adoc tells the course's history: '" + h + "'"));
            }
        }
        return over;
    }

    /** scripts/site.sh pack: the archive unpacks to pages that link to each other by file, to read from a folder. */
    static void pack(Path root, Path site, Path work) throws Exception {
        Path archive = work.resolve("course-site.tar.gz");
        String packed = run(work.resolve("pack.log"), Map.of(), root.resolve("scripts/site.sh").toString(), "pack", archive.toString(), "--from", site.toString());
        if (packed != null) {
            outcomes.record("site.sh pack makes an archive", false, packed);
            return;
        }
        Path unpacked = Files.createDirectories(work.resolve("unpacked"));
        String untarred = run(work.resolve("tar.log"), Map.of(), "tar", "-xzf", archive.toString(), "-C", unpacked.toString());
        Path folder = unpacked.resolve("course-site");
        List<String> broken = new ArrayList<>();
        long pages;
        try (Stream<Path> all = Files.walk(folder)) {
            List<Path> html = all.filter(p -> p.toString().endsWith(".html")).toList();
            pages = html.stream().filter(p -> p.getFileName().toString().equals("index.html")).count();
            Pattern href = Pattern.compile("href=\"([^\":]*)\"");
            for (Path page : html) {
                Matcher m = href.matcher(Files.readString(page));
                while (m.find()) {
                    String target = m.group(1).replaceFirst("#.*", "");
                    if (!target.isEmpty() && !Files.isRegularFile(page.getParent().resolve(target))) broken.add(folder.relativize(page) + ": " + target);
                }
            }
        }
        outcomes.record("site.sh pack: " + pages + " pages that link to each other by file, to read from a folder",
                untarred == null && Files.isRegularFile(folder.resolve("chapters/03-reactor/index.html"))
                        && Files.isRegularFile(folder.resolve("guide/before/index.html")) && broken.isEmpty(),
                untarred != null ? untarred : "missing pages, or links that lead nowhere from a folder: " + broken.stream().limit(3).toList());
    }

    /**
     * scripts/site.sh serve gives the pages the learner's gradings, races and their list at
     * /results/, and nothing else of .results/: not the room's tokens (room.json); and it says
     * where, for the grader's links (the learner's own record of that is put back after).
     */
    static void served(Path root, Path work) throws Exception {
        Path servedAt = root.resolve(".results/served-at"); // SiteAddress.SERVED, which the grader reads
        String before = Files.exists(servedAt) ? Files.readString(servedAt) : null;
        Path tokens = root.resolve(".results/room.json");
        boolean made = !Files.exists(tokens);
        if (made) {
            Files.createDirectories(tokens.getParent());
            Files.writeString(tokens, "{\"tokens\":{}}");
        }
        int port;
        try (java.net.ServerSocket free = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        CompletableFuture<Boolean> up = new CompletableFuture<>();
        Process serve = Commands.start(new ProcessBuilder(root.resolve("scripts/site.sh").toString(), "serve", "--port", String.valueOf(port))
                .directory(root.toFile()), work.resolve("serve.log"), line -> {
                    if (line.contains("Web Server is available")) up.complete(true);
                }).process();
        try {
            boolean started = serve.onExit().thenApply(p -> false).applyToEither(up, b -> b).completeOnTimeout(false, 120, TimeUnit.SECONDS).get();
            int list = -1, room = -1;
            if (started) {
                var client = java.net.http.HttpClient.newHttpClient();
                String at = "http://127.0.0.1:" + port + "/results/";
                list = client.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(at + "site/results.json")).build(),
                        java.net.http.HttpResponse.BodyHandlers.discarding()).statusCode();
                room = client.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(at + "room.json")).build(),
                        java.net.http.HttpResponse.BodyHandlers.discarding()).statusCode();
            }
            outcomes.record("site.sh serve gives the pages the learner's results at /results/, and not the room's tokens (.results/room.json)",
                    started && list == 200 && room == 404, started ? "results/site/results.json " + list + ", results/room.json " + room
                            : "it did not start in 120 s (see " + work.resolve("serve.log") + ")");
            String links = Files.exists(servedAt) ? Files.readString(servedAt).strip() : "nothing";
            outcomes.record("site.sh serve writes where it serves, for the grader's links: port " + port,
                    links.equals("http://127.0.0.1:" + port + "/"), ".results/served-at says " + links);
        } finally {
            Commands.stop(serve);
            if (made) Files.deleteIfExists(tokens);
            if (before == null) Files.deleteIfExists(servedAt);
            else Files.writeString(servedAt, before);
        }
    }

    /** The build must be able to fail: a copy of the course whose chapter 01 page includes a tag that does not exist. */
    static void brokenCopy(Path root, Path work) throws Exception {
        Path copy = work.resolve("broken-copy");
        for (String part : List.of("hugo.toml", "site", "scripts", "exercises", "solutions")) Trees.copy(root.resolve(part), copy.resolve(part));
        Path page = copy.resolve("site/content/chapters/01-blocking.adoc");
        Files.writeString(page, Files.readString(page).replace("tag=accept-loop]", "tag=no-such-tag]"));
        String tools = System.getenv().getOrDefault("COURSE_TOOLS_DIR", root.resolve(".tools").toString()); // not a second install
        String failed = run(work.resolve("broken.log"), Map.of("COURSE_TOOLS_DIR", tools), copy.resolve("scripts/site.sh").toString(),
                "build", work.resolve("broken-out").toString());
        outcomes.record("a page that includes a missing tag fails the build, naming the tag", failed != null && failed.contains("no-such-tag"),
                failed == null ? "it still builds" : "it failed, but not because of the tag: " + failed);
    }

    /** Runs a command to its end (5 minutes at most); null when it exits 0, else its exit and the end of its output. */
    static String run(Path log, Map<String, String> env, String... command) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().putAll(env);
        Commands.Ended ended = Commands.run(pb, log, java.time.Duration.ofMinutes(5));
        return ended.ok() ? null : ended.said(4);
    }

    /** content/chapters/01-blocking.adoc -> public/chapters/01-blocking/index.html; _index.adoc -> its folder. */
    static Path htmlFor(Path page, Path site) {
        String name = page.getFileName().toString().replace(".adoc", "");
        Path dir = page.getParent() == null ? site : site.resolve(page.getParent().toString());
        return name.equals("_index") || name.equals("index") ? dir.resolve("index.html") : dir.resolve(name).resolve("index.html");
    }

    /** The first non-blank, non-tag line of a tagged region, trimmed. */
    static String firstCodeLine(Path file, String tag) throws IOException {
        boolean in = false;
        for (String line : Files.readAllLines(file)) {
            if (line.contains("tag::" + tag + "[]")) { in = true; continue; }
            if (line.contains("end::" + tag + "[]")) return null;
            if (in && !line.isBlank() && !line.contains("tag::") && !line.contains("end::")) return line.strip();
        }
        return null;
    }

    static String unescape(String s) {
        return s.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&#39;", "'")
                .replace("&#8217;", "'").replace("&#34;", "\"").replace("&#x27;", "'").replace("&amp;", "&");
    }
}
