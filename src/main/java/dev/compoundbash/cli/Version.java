package dev.compoundbash.cli;

import java.io.InputStream;
import java.util.Properties;

/** The build's version, from the Maven-filtered {@code compound-bash.properties} resource. */
public final class Version {
    private Version() {
    }

    /** The version string, e.g. {@code 0.1.0}, or {@code "dev"} when the resource is missing. */
    public static String get() {
        try (InputStream in = Version.class.getClassLoader().getResourceAsStream("compound-bash.properties")) {
            if (in == null) return "dev";
            Properties p = new Properties();
            p.load(in);
            String v = p.getProperty("version", "dev");
            return v.startsWith("${") ? "dev" : v;
        } catch (Exception e) {
            return "dev";
        }
    }
}
