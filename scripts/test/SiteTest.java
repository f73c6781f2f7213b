///usr/bin/env jbang "$0" "$@" ; exit $?
//JAVA 25

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Checks the built site against its sources: every {@code include::{reporoot}/FILE[tag=T]} in a
 * page shows up, as text, in that page's HTML; every page a check's hint points to
 * ({@code @Check(see = "chapters/03-reactor#closing")}, in scripts/checks/) has that anchor; and
 * no page refers to another host.
 * Usage: SiteTest ROOT PUBLIC_DIR
 */
class SiteTest {
    static final Pattern INCLUDE = Pattern.compile("include::\\{reporoot}/([^\\[]+)\\[(?:[^\\]]*?)tags?=([^,\\]]+)[^\\]]*]");
    /** What makes a browser fetch from another host on load: src=, <link href=>, srcset (links to read later are fine). */
    static final Pattern EXTERNAL = Pattern.compile(
            "(?:\\bsrc(?:set)?=|<link\\b[^>]*\\bhref=)\"(?:https?:)?//(?!127\\.0\\.0\\.1|localhost)[^\"]*\"");

    /** A check's link to the page that teaches the fix: {@code see = "PAGE#ANCHOR"}. */
    static final Pattern SEE = Pattern.compile("\\bsee\\s*=\\s*\"([a-z0-9/_-]+)(?:#([a-z0-9_-]+))?\"");

    public static void main(String[] args) throws IOException {
        Path root = Path.of(args[0]);
        Path site = Path.of(args[1]);
        List<String> problems = new ArrayList<>();
        int includes = 0;
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
                    includes++;
                    String line = firstCodeLine(root.resolve(m.group(1)), m.group(2));
                    if (line == null) problems.add(page + ": tag '" + m.group(2) + "' not found in " + m.group(1));
                    else if (!built.contains(line)) problems.add(page + ": the built page lacks '" + line + "' from " + m.group(1) + "[tag=" + m.group(2) + "]");
                }
            }
        }
        int anchors = 0;
        try (Stream<Path> checks = Files.list(root.resolve("scripts/checks"))) {
            for (Path file : checks.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                Matcher m = SEE.matcher(Files.readString(file));
                while (m.find()) {
                    anchors++;
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
        problems.forEach(p -> System.out.println("site: " + p));
        System.out.println("site: " + includes + " included code regions and " + anchors + " hint links checked, " + problems.size() + " problems");
        System.exit(problems.isEmpty() ? 0 : 1);
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
