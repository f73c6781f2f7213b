package test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import bench.Framework;
import bench.RaceOptions;
import bench.Server;
import contract.BenchReport;
import contract.Plan;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import lib.Chapters;
import lib.CommandError;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Unit tests of who races with --all: the framework servers ({@link Framework}), with what,
 * against which bound, and the chapters --chapters picks.
 */
@Tag("unit")
class FrameworkTests {
    @Test
    @DisplayName("frameworks: --all races Spring Boot (platform and virtual threads), Helidon, Vert.x, Spring WebFlux and Micronaut (its default, and its loops as carriers) after Netty, unless --no-frameworks; a chapter's race never")
    void lineUp() {
        assertTrue(RaceOptions.parse(new String[] {"--all"}).frameworks());
        assertFalse(RaceOptions.parse(new String[] {"--all", "--no-frameworks"}).frameworks());
        assertFalse(RaceOptions.parse(new String[] {"03"}).frameworks());
        List<Server> race = Framework.race(BenchTests.ROOT);
        assertEquals(List.of("spring", "spring-vt", "helidon", "vertx", "webflux", "micronaut", "micronaut-loom"), race.stream().map(s -> s.id).toList());
        for (Server s : race) {
            assertEquals(BenchReport.Role.FRAMEWORK, s.role, s.id);
            assertTrue(Files.isRegularFile(s.file), s.file + " exists");
        }
        Plan.Workload io = Plan.WORKLOADS.stream().filter(w -> w.id().equals("io-2000")).findFirst().orElseThrow();
        assertEquals(1000, race.get(0).bound(io), 1e-9, "Tomcat's 200 threads / 0.2 s");
        assertEquals(10_000, race.get(1).bound(io), 1e-9, "virtual threads: the connections / 0.2 s");
    }

    @Test
    @DisplayName("frameworks: --spring-demo races Tomcat with 16 and 50 platform threads and with virtual threads, on GET /io?ms=400 at 2000 connections: bounds 40, 125 and 5000 a second")
    void springDemo() {
        RaceOptions demo = RaceOptions.parse(new String[] {"--spring-demo"});
        assertTrue(demo.all() && !demo.baseline() && !demo.frameworks(), "the demo races Spring Boot alone");
        assertEquals(List.of(Plan.SPRING_DEMO), demo.workloads());
        List<Server> servers = Server.lineUp(demo, Map.of());
        assertEquals(List.of("spring-16", "spring-50", "spring-vt"), servers.stream().map(s -> s.id).toList());
        assertEquals(List.of(40.0, 125.0, 5000.0), servers.stream().map(s -> s.bound(Plan.SPRING_DEMO)).toList());
        assertEquals(List.of("--virtual", "true"), servers.get(2).args);
        assertEquals(demo.mode().warmups(), demo.mode().warmupsFor(Plan.SPRING_DEMO), "the demo's workload warms up: no group shares it");
        assertEquals(60, Plan.SPRING_DEMO.timeoutSeconds(), "16 threads answer the last of 2000 connections after 50 s: it is awaited");
    }

    @Test
    @DisplayName("--all --chapters 05,6,09 races those chapters' solutions and Netty, in course order; its words are in the report's command")
    void chaptersPicked() {
        String root = BenchTests.ROOT.toString();
        String[] args = {"--all", "--chapters", "09,6,05", "--no-frameworks", "--root", root};
        RaceOptions o = RaceOptions.parse(args);
        assertEquals(java.util.Set.of("05", "06", "09"), o.chapters());
        List<Server> servers = Server.lineUp(o, Chapters.read(BenchTests.ROOT));
        assertEquals(List.of("05", "06", "09", "netty"), servers.stream().map(s -> s.id).toList());
        assertEquals("scripts/bench.sh --all --chapters 09,6,05 --no-frameworks", RaceOptions.command(args));
        assertEquals(List.of("03", "netty"), Server.lineUp(RaceOptions.parse(new String[] {"--all", "--chapters", "3", "--no-frameworks", "--root", root}),
                Chapters.read(BenchTests.ROOT)).stream().map(s -> s.id).toList());
        assertNull(RaceOptions.parse(new String[] {"--all", "--root", root}).chapters(), "without --chapters, every chapter of the showdown");
    }

    @Test
    @DisplayName("--chapters is refused, in one sentence with the usage, without --all, and for a chapter --all does not race (none such, 07 the showdown, 08 on its own)")
    void chaptersRefused() {
        String root = BenchTests.ROOT.toString();
        Map<String, String> refused = Map.of(
                "03 --chapters 05", "--chapters picks the chapters of --all",
                "--spring-demo --chapters 05", "--chapters picks the chapters of --all",
                "--all --chapters 05,42", "the course has no chapter '42'",
                "--all --chapters 5x", "the course has no chapter '5x'",
                "--all --chapters 07", "chapter 07 is the showdown itself",
                "--all --chapters 06,08", "chapter 08 races on its own (scripts/bench.sh 08)");
        refused.forEach((line, words) -> {
            String[] args = (line + " --root " + root).split(" ");
            CommandError e = assertThrows(CommandError.class, () -> RaceOptions.parse(args), line);
            assertTrue(e.usage && e.exit == 2 && e.getMessage().contains(words), line + ": " + e.getMessage());
            assertFalse(e.getMessage().contains(". "), "one sentence: " + e.getMessage());
        });
    }
}
