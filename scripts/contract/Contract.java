// The contract as one group for //SOURCES: what the grader, the race and the room exchange (the
// grading report, the race report and what it is made of, the list of checks). It builds on the
// core (scripts/lib) alone; an entry point names this file, not its members. This file declares
// no type of its own.
//SOURCES CheckReport.java CheckList.java BenchReport.java ConnectionsReport.java Plan.java Verdict.java Stats.java Cpus.java

package contract;
