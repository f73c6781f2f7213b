///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25
//SOURCES ../lib/Outcomes.java Trees.java Commands.java

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The site, built and checked against its sources: it builds with no warning into OUT
 * (scripts/site.sh build); every {@code include::{reporoot}/FILE[tag=T]} in a page shows up, as
 * text, in that page's HTML; every page a check's hint points to ({@code @Check(see =
 * "chapters/03-reactor#closing")}, in scripts/checks/) has that anchor; no page refers to another
 * host; the packed site (scripts/site.sh pack) links from page to page by file; and a copy of
 * the course whose page includes a missing tag fails the build, naming the tag.
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
                outcomes.finish();
                return;
            }
            List<String> problems = content(root, site);
            problems.forEach(p -> System.out.println("      " + p));
            outcomes.record("every page shows the code it includes, its hints' sections exist, and it links to no other host",
                    problems.isEmpty(), problems.size() + " problem(s), listed above");
            pack(root, site, work);
            brokenCopy(root, work);
        } finally {
            Trees.delete(work);
        }
        outcomes.finish();
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
