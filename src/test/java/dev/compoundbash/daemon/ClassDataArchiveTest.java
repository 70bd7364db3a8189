package dev.compoundbash.daemon;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.ToolProvider;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 20, finding 7: an archive that does not map is found from the JVM's own class-data log and set aside, so the
 * launcher trains a new one. Real JVMs: an archive trained for one jar, then used with a copy of that jar at another
 * path (the two install routes), which HotSpot refuses ("shared class paths mismatch").
 */
class ClassDataArchiveTest {
    static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();

    @TempDir
    Path tmp;

    Path helloJar(Path jar) throws IOException {
        Path src = Files.createDirectories(tmp.resolve("src"));
        Files.writeString(src.resolve("Hello.java"), "public class Hello { public static void main(String[] a) { "
                + "System.out.println(new java.util.TreeMap<String, String>().size()); } }");
        assertThat(ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", src.toString(),
                src.resolve("Hello.java").toString())).isZero();
        Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        m.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "Hello");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), m)) {
            out.putNextEntry(new JarEntry("Hello.class"));
            out.write(Files.readAllBytes(src.resolve("Hello.class")));
            out.closeEntry();
        }
        return jar;
    }

    int java(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(JAVA, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xlog:disable"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        return p.exitValue();
    }

    @Test
    void anArchiveOfAnotherJarIsSetAsideAndOneOfThisJarIsKept() throws Exception {
        Path a = helloJar(tmp.resolve("a.jar"));
        Path b = Files.copy(a, tmp.resolve("b.jar"));
        Path jsa = tmp.resolve("cds-a.jsa");
        assertThat(java("-XX:ArchiveClassesAtExit=" + jsa, "-jar", a.toString())).isZero();
        assertThat(jsa).isRegularFile();

        Path log = tmp.resolve("a.log");
        assertThat(java("-XX:SharedArchiveFile=" + jsa, "-Xlog:cds=info:file=" + log + ":none", "-jar", a.toString()))
                .isZero();
        assertThat(ClassDataArchive.check(log, jsa)).as("maps for its own jar").isFalse();
        assertThat(jsa).isRegularFile();
        assertThat(log).doesNotExist();

        // the other route's jar: the JVM runs, without the archive, and says why in its log
        assertThat(java("-XX:SharedArchiveFile=" + jsa, "-Xlog:cds=info:file=" + log + ":none", "-jar", b.toString()))
                .isZero();
        assertThat(ClassDataArchive.check(log, jsa)).as("does not map for another jar").isTrue();
        assertThat(jsa).doesNotExist();
        assertThat(tmp.resolve("cds-a.jsa.unmapped")).isRegularFile();
        assertThat(log).doesNotExist();
    }

    @Test
    void readsHotSpotsFailureLines() {
        assertThat(ClassDataArchive.failed("Mapped dynamic region #0 at base 0x1\nUnmapping region #2\n")).isFalse();
        assertThat(ClassDataArchive.failed("Mapped dynamic region #0\nUseSharedSpaces: shared class paths mismatch\n"))
                .isTrue();
        assertThat(ClassDataArchive.failed("[0.058s][info][cds] UseSharedSpaces: The shared archive file has the wrong magic number\n"))
                .isTrue();
        assertThat(ClassDataArchive.checkAfterStart()).as("no archive named: nothing to do").isFalse();
    }
}
