package dev.compoundbash.settings;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What was read from a file, kept while the file is unchanged: the warm evaluator reads the same settings files on
 * every call, and re-parsing them was about a tenth of its time per decision (issue 20, finding 4).
 *
 * <p>A file counts as unchanged while its stamp is: device, inode, size, modification time and status-change time
 * ({@code stat(2)}; a {@code chmod} changes the last). File times are coarse (a kernel tick), so two writes within
 * one tick can give one stamp: as git does for its index ("racy git"), a value is kept only when the file's last
 * change is older than {@link #SETTLED_MILLIS} at the time it was stamped; a file changed more recently is read
 * again on every call until it settles. The stamp is taken before the read, so a change during the read gives a new
 * stamp next time. Holds at most {@value #MAX_ENTRIES} files (least recently used dropped).
 *
 * @param <T> what is kept per file
 */
final class FileMemo<T> {
    /** How long a file must have been unchanged before what was read from it is kept. */
    static final long SETTLED_MILLIS = 2_000;
    /** Files remembered at most. */
    static final int MAX_ENTRIES = 64;

    private record Entry<T>(List<Object> stamp, T value) {
    }

    private final Map<Path, Entry<T>> entries = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Path, Entry<T>> eldest) {
            return size() > MAX_ENTRIES;
        }
    };

    /**
     * The file's stamp now, following links; null when it cannot be taken (then nothing is kept for it).
     *
     * @param file the file
     * @return device, inode, size, modification and status-change time, or null
     */
    static List<Object> stamp(Path file) {
        try {
            Map<String, Object> a = Files.readAttributes(file, "unix:dev,ino,size,lastModifiedTime,ctime");
            Object m = a.get("lastModifiedTime");
            Object c = a.get("ctime");
            if (m == null || c == null) return null;
            long newest = Math.max(((java.nio.file.attribute.FileTime) m).toMillis(),
                    ((java.nio.file.attribute.FileTime) c).toMillis());
            if (System.currentTimeMillis() - newest < SETTLED_MILLIS) return null; // racy: read it every time
            return List.of(a.get("dev"), a.get("ino"), a.get("size"), m, c);
        } catch (IOException | RuntimeException e) { // no unix view, or gone
            return null;
        }
    }

    /**
     * What was kept for {@code file} under {@code stamp}.
     *
     * @param file  the file
     * @param stamp its stamp now ({@link #stamp}); null gives null
     * @return the value, or null when nothing is kept for this stamp
     */
    synchronized T get(Path file, List<Object> stamp) {
        if (stamp == null) return null;
        Entry<T> e = entries.get(file);
        return e != null && e.stamp().equals(stamp) ? e.value() : null;
    }

    /**
     * Keeps {@code value} for {@code file} under the stamp taken before it was read.
     *
     * @param file  the file
     * @param stamp the stamp taken before reading; null keeps nothing
     * @param value what was read (immutable)
     */
    synchronized void put(Path file, List<Object> stamp, T value) {
        if (stamp == null) {
            entries.remove(file);
            return;
        }
        entries.put(file, new Entry<>(stamp, value));
    }
}
