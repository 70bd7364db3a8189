package dev.compoundbash.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code compound-bash doctor [--json] [--no-round-trip]}: runs the {@link Doctor} checks and prints each with what
 * to do; colours on a terminal (unless {@code NO_COLOR} is set), plain when piped, one JSON object with
 * {@code --json}. Exit status 1 when a check failed (something is broken), else 0.
 */
@Command(name = "doctor", mixinStandardHelpOptions = true,
        description = {"Check the installation: Java, the jar and its build, the class-data archive, the evaluator, "
                + "where the hook is registered, the settings files, the rule files, the logs, and a decision round "
                + "trip through the hook process.",
                "Exit status: 0 nothing is broken (warnings allowed), 1 something is broken."})
public final class DoctorCommand implements Callable<Integer> {
    static PrintStream out = System.out;

    @Option(names = "--json", description = "Print one JSON object: {ok, version, checks: [{name, status, summary, details, fix}]}.")
    boolean json;

    @Option(names = "--no-round-trip", description = "Skip the decision round trip through the hook process.")
    boolean noRoundTrip;

    @Option(names = "--agent", paramLabel = "AGENT", split = ",",
            description = "Also check these agents' hooks where none is installed: codex, gemini, copilot (agents "
                    + "with compound-bash's hook are always checked).")
    List<String> agents = List.of();

    /**
     * Runs the checks and prints them.
     *
     * @return 1 when a check failed, else 0
     * @throws Exception when the JSON output cannot be written
     */
    @Override
    public Integer call() throws Exception {
        List<Doctor.Check> checks = new Doctor(System.getenv(), !noRoundTrip).withAgents(agents).run();
        boolean broken = checks.stream().anyMatch(c -> c.status() == Doctor.Status.FAIL);
        if (json) {
            ObjectMapper m = new ObjectMapper();
            ObjectNode o = m.createObjectNode();
            o.put("ok", !broken);
            o.put("version", Version.get());
            ArrayNode a = o.putArray("checks");
            for (Doctor.Check c : checks) {
                ObjectNode n = a.addObject();
                n.put("name", c.name());
                n.put("status", c.status().name().toLowerCase());
                n.put("summary", c.summary());
                ArrayNode d = n.putArray("details");
                c.details().forEach(d::add);
                n.put("fix", c.fix());
            }
            out.println(m.writerWithDefaultPrettyPrinter().writeValueAsString(o));
        } else {
            print(checks, colour());
        }
        return broken ? 1 : 0;
    }

    private void print(List<Doctor.Check> checks, boolean colour) {
        out.println("compound-bash doctor (" + Version.get() + ")");
        int fails = 0, warns = 0;
        for (Doctor.Check c : checks) {
            String tag = switch (c.status()) {
                case OK -> paint(colour, "32", "ok  ");
                case WARN -> paint(colour, "33", "warn");
                case FAIL -> paint(colour, "31;1", "FAIL");
            };
            if (c.status() == Doctor.Status.FAIL) fails++;
            if (c.status() == Doctor.Status.WARN) warns++;
            out.printf("%s  %-19s %s%n", tag, c.name(), c.summary());
            for (String d : c.details()) out.println("      " + " ".repeat(20) + d);
            if (c.fix() != null) out.println("      " + " ".repeat(20) + paint(colour, "1", "fix: ") + c.fix());
        }
        out.println(fails == 0 && warns == 0 ? "nothing to fix"
                : fails + " problem(s), " + warns + " warning(s)");
    }

    private static String paint(boolean colour, String code, String s) {
        return colour ? "\u001b[" + code + "m" + s + "\u001b[0m" : s;
    }

    /** Colours when stdout is a terminal and {@code NO_COLOR} is unset or empty ({@link Terminal}). */
    static boolean colour() {
        return Terminal.colourOnStdout(System.getenv());
    }
}
