package dev.compoundbash.daemon;

import dev.compoundbash.hook.HookRunner;
import dev.compoundbash.hook.UserRules;
import dev.compoundbash.rules.RuleEngine;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The warm evaluator's KieBases, one per distinct set of user DRL files. The key is the files' paths and their
 * exact bytes (SHA-256), read on every request, so an edited, added or removed rule file gives a new key and the
 * next request compiles (or reads from the package cache) the rules a cold run would load. Settings are not cached
 * here: {@link HookRunner} reads them on every request. Keeps the {@value #MAX_ENTRIES} most recently used
 * engines.
 */
public final class EngineCache implements HookRunner.EngineSource {
    /** How many distinct rule sets are kept loaded. */
    public static final int MAX_ENTRIES = 8;

    private final ConcurrentHashMap<String, CompletableFuture<RuleEngine>> inFlight = new ConcurrentHashMap<>();

    private final Map<String, RuleEngine> engines = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, RuleEngine> eldest) {
            return size() > MAX_ENTRIES;
        }
    };

    /**
     * The engine for {@code userFiles} as they are now: a loaded one when the files' paths and bytes are unchanged,
     * else a fresh {@link RuleEngine#load(List, Path)}.
     *
     * @param userFiles the requester's DRL files
     * @param env       the requester's environment (for the package cache directory)
     * @return the engine; never null
     */
    @Override
    public RuleEngine engine(List<Path> userFiles, Map<String, String> env) {
        String key = key(userFiles);
        RuleEngine engine;
        synchronized (engines) {
            engine = key == null ? null : engines.get(key);
        }
        if (engine != null) return engine;
        if (key == null) return RuleEngine.load(userFiles, UserRules.cacheDirectory(env));
        // One load per rule set, however many requests wait for it: on a loaded machine a compile takes seconds,
        // and the requests that wait answer within their budget without it (Evaluator).
        CompletableFuture<RuleEngine> mine = new CompletableFuture<>();
        CompletableFuture<RuleEngine> loading = inFlight.putIfAbsent(key, mine);
        if (loading != null) return loading.join();
        try {
            engine = RuleEngine.load(userFiles, UserRules.cacheDirectory(env));
            // Cache only when the files did not change while they were compiled.
            if (key.equals(key(userFiles))) {
                synchronized (engines) {
                    engines.put(key, engine);
                }
            }
            mine.complete(engine);
            return engine;
        } catch (RuntimeException | Error e) {
            mine.completeExceptionally(e);
            throw e;
        } finally {
            inFlight.remove(key, mine);
        }
    }

    /** How many engines are loaded. */
    public int size() {
        synchronized (engines) {
            return engines.size();
        }
    }

    /** SHA-256 over each file's path and bytes; null when a file cannot be read (then nothing is cached). */
    static String key(List<Path> files) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            for (Path f : files) {
                byte[] name = f.toString().getBytes(StandardCharsets.UTF_8);
                byte[] bytes = Files.readAllBytes(f);
                md.update(Integer.toString(name.length).getBytes(StandardCharsets.US_ASCII));
                md.update((byte) ':');
                md.update(name);
                md.update(Integer.toString(bytes.length).getBytes(StandardCharsets.US_ASCII));
                md.update((byte) ':');
                md.update(bytes);
            }
            return HexFormat.of().formatHex(md.digest());
        } catch (IOException e) {
            return null;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
