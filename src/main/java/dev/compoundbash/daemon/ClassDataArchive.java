package dev.compoundbash.daemon;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The class-data-sharing archive {@code bin/compound-bash} trains for each jar and JVM (JDK 13+ dynamic archive,
 * {@code -XX:SharedArchiveFile}). The launcher starts every JVM with {@code -Xlog:cds=info:file=LOG} and the system
 * properties {@code compoundbash.cdsArchive} and {@code compoundbash.cdsLog}; an archive the JVM could not map is
 * used silently without it ({@code -Xshare:auto}) and every start stays slow. HotSpot logs each such failure as a
 * line starting {@code UseSharedSpaces:} (JDK 17, {@code FileMapInfo::fail_continue}): this class reads the log once
 * the JVM runs, and renames an archive that did not map to {@code *.unmapped}, so the launcher trains a new one.
 */
public final class ClassDataArchive {
    private ClassDataArchive() {
    }

    /**
     * Checks this JVM's class-data log and removes its log file; renames the archive to {@code ARCHIVE.unmapped} when
     * the log says it did not map. Does nothing when the launcher did not name an archive. Never throws.
     *
     * @return true when the archive was found not to map (and was set aside)
     */
    public static boolean checkAfterStart() {
        String archive = System.getProperty("compoundbash.cdsArchive");
        String log = System.getProperty("compoundbash.cdsLog");
        if (archive == null || log == null || archive.isEmpty() || log.isEmpty()) return false;
        return check(Path.of(log), Path.of(archive));
    }

    /**
     * Reads and removes a JVM's class-data log; renames {@code archive} to {@code ARCHIVE.unmapped} when the log says
     * it did not map. Never throws.
     *
     * @param log     the file a JVM wrote with {@code -Xlog:cds=info:file=LOG:none}
     * @param archive the archive that JVM was given
     * @return true when the archive was found not to map (and was set aside)
     */
    public static boolean check(Path log, Path archive) {
        try {
            String text;
            try {
                text = Files.readString(log, StandardCharsets.ISO_8859_1);
            } finally {
                Files.deleteIfExists(log);
            }
            if (!failed(text)) return false;
            Files.move(archive, archive.resolveSibling(archive.getFileName() + ".unmapped"),
                    StandardCopyOption.REPLACE_EXISTING);
            return true;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /**
     * @param cdsLog the text of a JVM's {@code -Xlog:cds=info} output (decorations off)
     * @return true when it records a failure to use the archives
     */
    static boolean failed(String cdsLog) {
        for (String line : cdsLog.split("\n")) {
            if (line.startsWith("UseSharedSpaces:") || line.contains("] UseSharedSpaces:")) return true;
        }
        return false;
    }
}
