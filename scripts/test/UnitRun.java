package test;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClasspathRoots;
import static org.junit.platform.launcher.TagFilter.includeTags;
import static org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder.request;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;
import lib.Outcomes;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.reporting.legacy.xml.LegacyXmlReportGeneratingListener;

/**
 * One JUnit Platform run of the test classes on the running program's own class path whose tags
 * match: Units runs the unit tier so, TestBench its own part of it. Each result is printed as it
 * ends ("ok    NAME", or "FAIL  NAME" and why), then "N passed, N failed".
 */
public final class UnitRun {
    private UnitRun() {}

    /**
     * Runs the test classes on this JVM's own code whose tags match {@code tags}, with the course at
     * {@code root}; JUnit's XML report goes to {@code reports} (none when null). The status to exit with.
     */
    public static int run(Path root, String tags, Path reports) throws IOException {
        System.setProperty("course.root", root.toString());
        Outcomes outcomes = new Outcomes("");
        TestExecutionListener printing = new TestExecutionListener() {
            @Override
            public void executionFinished(TestIdentifier id, TestExecutionResult result) {
                if (!id.isTest() && result.getStatus() != TestExecutionResult.Status.FAILED) return;
                outcomes.record(name(id), result.getStatus() == TestExecutionResult.Status.SUCCESSFUL,
                        result.getThrowable().map(t -> String.valueOf(t.getMessage()).strip()).orElse("failed"));
            }
        };
        var launcher = LauncherFactory.create();
        var request = request().selectors(selectClasspathRoots(Set.of(ownCode()))).filters(includeTags(tags)).build();
        if (reports == null) {
            launcher.execute(request, printing);
        } else {
            Files.createDirectories(reports);
            PrintWriter trouble = new PrintWriter(System.err, true, StandardCharsets.UTF_8);
            launcher.execute(request, printing, new LegacyXmlReportGeneratingListener(reports, trouble));
        }
        return outcomes.end();
    }

    /**
     * A test's name in the log: its class without "Tests" and its display name, or its method's
     * name where it has none of its own ("coursefiles: readmeChapterTable").
     */
    static String name(TestIdentifier id) {
        String name = id.getDisplayName();
        if (id.getSource().orElse(null) instanceof MethodSource m) {
            String owner = m.getJavaClass().getSimpleName().replace("Tests", "").toLowerCase(Locale.ROOT);
            if (name.startsWith(m.getMethodName() + "(") && name.endsWith(")")) name = m.getMethodName(); // JUnit's default
            return owner + ": " + name;
        }
        return name;
    }

    /** Where this program's classes are: its jar (as JBang runs it) or its folder. */
    static Path ownCode() {
        try {
            return Path.of(UnitRun.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("where this program's classes are: " + e.getMessage(), e);
        }
    }
}
