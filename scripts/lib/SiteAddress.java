package lib;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Where the learner or the instructor reads the course's pages, and a page's address there. */
public final class SiteAddress {
    /** Where scripts/site.sh serve writes the address it serves the course on. */
    public static final String SERVED = ".results/served-at";

    private SiteAddress() {}

    /**
     * The course's site: {@code setting} (COURSE_SITE) when given, such as the folder of an
     * unpacked {@code scripts/site.sh pack} ({@code file:///home/ada/course-site/}) or a hosted
     * copy; else the address {@code scripts/site.sh serve} (and start.sh) last served it on, which
     * it writes to {@link #SERVED}; else http://127.0.0.1:1313/.
     */
    public static String of(String setting, Path root) {
        if (setting == null || setting.isBlank()) {
            try {
                String served = Files.readString(root.resolve(SERVED)).strip();
                if (served.matches("http://127\\.0\\.0\\.1:\\d{1,5}/")) return served;
            } catch (IOException e) {
                // never served from this folder: the default port
            }
        }
        return of(setting);
    }

    public static String of(String setting) {
        if (setting == null || setting.isBlank()) return "http://127.0.0.1:1313/";
        return setting.endsWith("/") ? setting : setting + "/";
    }

    /** The address of a page of the site ("chapters/03-reactor#closing") on the course at {@code site}. */
    public static String url(String site, String see) {
        return site + link(site, see);
    }

    /** A page of the site, "chapters/03-reactor#closing", as a link: to its folder, or its index.html on disk. */
    public static String link(String site, String see) {
        String page = site.startsWith("file:") ? "/index.html" : "/";
        int hash = see.indexOf('#');
        return hash < 0 ? see + page : see.substring(0, hash) + page + see.substring(hash);
    }
}
