package dev.compoundbash.hook;

import java.util.Map;

/** Child process for {@link HookLogTest}: appends evaluations to the log given as args[0]. */
public final class HookLogStressMain {

    private HookLogStressMain() {
    }

    /**
     * @param args log path, writer id, evaluations, lines per evaluation, payload length
     */
    public static void main(String[] args) {
        HookLogTest.writeEvaluations(Map.of(HookLog.LOG_ENV, args[0]), args[1],
                Integer.parseInt(args[2]), Integer.parseInt(args[3]), Integer.parseInt(args[4]));
    }
}
