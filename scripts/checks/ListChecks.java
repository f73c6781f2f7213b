//JAVA 25
//SOURCES Grade.java

package checks;

import contract.CheckList;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import lib.Chapters;
import lib.Root;

/**
 * {@code jbang scripts/checks/ListChecks.java}: writes the list of the course's checks
 * ({@link CheckList}, scripts/checks/checks.json) from the grader's check classes. Run it after
 * adding, renaming or retitling a check; the self-test fails until the list agrees. A maintainer's
 * tool, not an entry point the room needs offline: it has no {@code ///usr/bin/env jbang} line,
 * so scripts/prefetch.sh leaves it out.
 */
class ListChecks {
    public static void main(String[] args) throws Exception {
        Path root = args.length > 0 ? Path.of(args[0]).toAbsolutePath().normalize() : Root.find();
        CheckList list = Grade.checkList(Chapters.graded(root).values());
        Files.writeString(root.resolve(CheckList.FILE), list.text(), StandardCharsets.UTF_8);
        System.out.println("checks: " + list.checks().size() + " checks of " + list.byChapter().size() + " chapters written to " + CheckList.FILE);
    }
}
