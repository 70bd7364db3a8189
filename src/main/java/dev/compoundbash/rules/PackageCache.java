package dev.compoundbash.rules;

import org.drools.base.common.DroolsObjectInputStream;
import org.drools.base.common.DroolsObjectOutputStream;
import org.kie.api.definition.KiePackage;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Compiled DRL kept as serialized {@link KiePackage}s, so a process need not compile DRL (ECJ + MVEL, seconds) to
 * get a KieBase. The DRL stays the source of truth: every cache entry is keyed by a SHA-256 over the Drools
 * version, this build's version and the DRL bytes it was compiled from, and a key that does not match is ignored
 * (the caller recompiles).
 *
 * <ul>
 *   <li>Built-in rules: {@link #main} compiles {@code rules/*.drl} at build time into the classpath resource
 *       {@value #BUILT_IN_RESOURCE} (see {@code pom.xml}, phase {@code process-classes}).</li>
 *   <li>User rules: {@link #readUser}/{@link #writeUser} keep one file per DRL file in a user-private directory
 *       (directory 0700, files 0600, written atomically: temp file then rename), since the cache is Java
 *       deserialization and hooks run concurrently.</li>
 * </ul>
 * Follows the Drools documentation's KiePackage serialization ({@code DroolsObjectOutputStream}); Drools 10 cannot
 * serialize a whole KieBase, only its packages.
 */
public final class PackageCache {
    /** Classpath resource holding the built-in packages, written at build time. */
    public static final String BUILT_IN_RESOURCE = "rules/builtin.kpkg";

    private static final byte[] MAGIC = "compound-bash kpkg 1\n".getBytes(StandardCharsets.US_ASCII);

    private PackageCache() {
    }

    /**
     * The cache key of DRL sources: SHA-256 over the Drools version, the build version, and each source's name and
     * bytes, in order.
     *
     * @param sources source name to DRL bytes, in compilation order
     * @return 64 lowercase hex digits
     */
    public static String key(Map<String, byte[]> sources) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            update(md, droolsVersion());
            update(md, buildVersion());
            for (Map.Entry<String, byte[]> e : sources.entrySet()) {
                update(md, e.getKey());
                md.update(longBytes(e.getValue().length));
                md.update(e.getValue());
            }
            return HexFormat.of().formatHex(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Reads the built-in packages compiled at build time.
     *
     * @param key the key of the built-in DRL as it is now ({@link #key})
     * @return the packages, or null when the resource is missing, unreadable or was compiled from other DRL
     */
    public static Collection<KiePackage> readBuiltIn(String key) {
        try (InputStream in = PackageCache.class.getClassLoader().getResourceAsStream(BUILT_IN_RESOURCE)) {
            if (in == null) return null;
            return decode(in.readAllBytes(), key);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * Reads a user DRL file's cached packages.
     *
     * @param dir the cache directory (may be null: no cache)
     * @param key the file's key ({@link #key} of its path and bytes)
     * @return the packages, or null on a miss or any read/deserialization failure
     */
    public static Collection<KiePackage> readUser(Path dir, String key) {
        if (dir == null) return null;
        Path f = dir.resolve(key + ".kpkg");
        try {
            if (!Files.isRegularFile(f)) return null;
            return decode(Files.readAllBytes(f), key);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * Writes a user DRL file's packages to the cache; failures are ignored (the next process compiles again).
     *
     * @param dir      the cache directory, created 0700 when missing (may be null: no cache)
     * @param key      the file's key
     * @param packages the compiled packages
     */
    public static void writeUser(Path dir, String key, Collection<KiePackage> packages) {
        if (dir == null) return;
        try {
            createPrivateDirectories(dir);
            byte[] bytes = encode(packages, key);
            Path tmp = Files.createTempFile(dir, "kpkg", ".tmp",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            try {
                Files.write(tmp, bytes);
                try {
                    Files.move(tmp, dir.resolve(key + ".kpkg"), StandardCopyOption.ATOMIC_MOVE,
                            StandardCopyOption.REPLACE_EXISTING);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(tmp, dir.resolve(key + ".kpkg"), StandardCopyOption.REPLACE_EXISTING);
                }
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (IOException | RuntimeException e) {
            // A cache that cannot be written costs only time.
        }
    }

    /**
     * Creates {@code dir} and missing parents with mode 0700.
     *
     * @param dir the directory
     * @throws IOException when one cannot be created
     */
    public static void createPrivateDirectories(Path dir) throws IOException {
        if (Files.isDirectory(dir)) return;
        Path parent = dir.getParent();
        if (parent != null) createPrivateDirectories(parent);
        try {
            Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        } catch (java.nio.file.FileAlreadyExistsException e) {
            // a parallel process made it
        }
    }

    static byte[] encode(Collection<KiePackage> packages, String key) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.write(MAGIC);
        bytes.write((key + "\n").getBytes(StandardCharsets.US_ASCII));
        try (DroolsObjectOutputStream out = new DroolsObjectOutputStream(bytes)) {
            out.writeObject(new ArrayList<>(packages));
        }
        return bytes.toByteArray();
    }

    @SuppressWarnings("unchecked")
    static Collection<KiePackage> decode(byte[] bytes, String key) throws IOException {
        byte[] header = new byte[MAGIC.length + key.length() + 1];
        if (bytes.length < header.length) return null;
        System.arraycopy(bytes, 0, header, 0, header.length);
        String expected = new String(MAGIC, StandardCharsets.US_ASCII) + key + "\n";
        if (!expected.equals(new String(header, StandardCharsets.US_ASCII))) return null;
        try (DroolsObjectInputStream in = new DroolsObjectInputStream(
                new ByteArrayInputStream(bytes, header.length, bytes.length - header.length),
                PackageCache.class.getClassLoader())) {
            return (Collection<KiePackage>) in.readObject();
        } catch (ClassNotFoundException e) {
            return null;
        }
    }

    /**
     * Build-time entry: compiles the built-in DRL with MVEL and writes {@value #BUILT_IN_RESOURCE}.
     *
     * @param args one argument, the classes directory (e.g. {@code target/classes})
     * @throws Exception when the built-in DRL does not compile or the file cannot be written
     */
    public static void main(String[] args) throws Exception {
        Map<String, byte[]> sources = RuleEngine.builtInSources();
        Collection<KiePackage> packages = RuleEngine.compileBuiltIn(sources);
        Path out = Path.of(args[0]).resolve(BUILT_IN_RESOURCE);
        Files.createDirectories(out.getParent());
        Files.write(out, encode(packages, key(sources)));
        System.out.println("compound-bash: wrote " + out + " (" + Files.size(out) + " bytes)");
    }

    private static String droolsVersion() {
        // The Maven descriptor is the same inside drools-core's jar and the shaded hook jar (manifests differ).
        try (InputStream in = PackageCache.class.getClassLoader()
                .getResourceAsStream("META-INF/maven/org.drools/drools-core/pom.properties")) {
            if (in == null) return "drools-unknown";
            java.util.Properties p = new java.util.Properties();
            p.load(in);
            return p.getProperty("version", "drools-unknown");
        } catch (IOException e) {
            return "drools-unknown";
        }
    }

    private static String buildVersion() {
        try (InputStream in = PackageCache.class.getClassLoader().getResourceAsStream("compound-bash.properties")) {
            if (in == null) return "dev";
            java.util.Properties p = new java.util.Properties();
            p.load(in);
            return p.getProperty("version", "dev");
        } catch (IOException e) {
            return "dev";
        }
    }

    private static void update(MessageDigest md, String s) {
        byte[] b = (s == null ? "" : s).getBytes(StandardCharsets.UTF_8);
        md.update(longBytes(b.length));
        md.update(b);
    }

    private static byte[] longBytes(long v) {
        byte[] b = new byte[8];
        for (int i = 7; i >= 0; i--) {
            b[i] = (byte) v;
            v >>>= 8;
        }
        return b;
    }

    /** Orders a map of sources as given (helper for callers building keys). */
    static Map<String, byte[]> single(String name, byte[] bytes) {
        Map<String, byte[]> m = new LinkedHashMap<>();
        m.put(name, bytes);
        return m;
    }
}
