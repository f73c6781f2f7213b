// The course's shared library as one group for //SOURCES: an entry point names this file, not
// its members, and gets their dependencies with them. The grader (scripts/checks/Grade.java)
// and the race (scripts/bench/Bench.java) build on it; this file declares no type of its own.
//DEPS com.fasterxml.jackson.core:jackson-databind:2.22.4
//DEPS info.picocli:picocli:4.7.7
//SOURCES Jackson.java Results.java Target.java Inspect.java ContextSwitches.java Jcmd.java InspectAgent.java Unavailable.java Others.java Chapters.java Frameworks.java
//SOURCES Timeline.java TimelineLanes.java ThreadStates.java
//SOURCES SiteAddress.java Root.java LaunchRecord.java Tools.java Painter.java ShellWords.java Cli.java CommandError.java Subject.java SubjectOptions.java

package lib;
