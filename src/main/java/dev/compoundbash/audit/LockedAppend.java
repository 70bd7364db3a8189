package dev.compoundbash.audit;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One atomic append to a log file shared by parallel hook processes: a single write on a {@link FileChannel} opened
 * with {@code APPEND} (POSIX {@code O_APPEND}), under an exclusive {@link FileLock} (POSIX {@code fcntl} record
 * lock), so the records of two processes never interleave. Optionally rotates the file past a size limit, under
 * the same lock, keeping a fixed number of numbered generations ({@code log.1}, {@code log.2}, ...) like
 * logrotate's {@code rotate N}.
 */
public final class LockedAppend {
    /** FileLocks are held per JVM: threads of one JVM must be serialised before taking one. */
    private static final ReentrantLock JVM_LOCK = new ReentrantLock();

    private static final long LOCK_WAIT_MILLIS = 2_000;

    private LockedAppend() {
    }

    /**
     * Appends {@code bytes} to {@code path} in one locked write, creating missing parent directories. The lock is
     * taken on the file itself. Waits at most two seconds for the lock, then writes unlocked (relying on
     * {@code O_APPEND}): a hook must never hang on its log.
     *
     * @param path  the log file
     * @param bytes the complete records to append
     * @throws IOException when the path is not a regular file, is this process's stdout, or cannot be written
     */
    public static void append(Path path, byte[] bytes) throws IOException {
        append(path, bytes, 0, 0);
    }

    /**
     * Appends {@code bytes} to {@code path} in one locked write; when the file already holds {@code maxBytes} or
     * more, first renames it to {@code path.1} (shifting {@code path.1} to {@code path.2}, ..., dropping the
     * oldest beyond {@code keep}). Rotating files are locked through a sibling {@code path.lock} file that is
     * never renamed, so a process waiting for the lock never writes into a generation that was just rotated away.
     *
     * @param path     the log file
     * @param bytes    the complete records to append
     * @param maxBytes rotate when the file is at least this large; 0 or less never rotates
     * @param keep     how many rotated generations to keep (at least 1 when rotating)
     * @throws IOException when the path is not a regular file, is this process's stdout, or cannot be written
     */
    public static void append(Path path, byte[] bytes, long maxBytes, int keep) throws IOException {
        Path parent = path.toAbsolutePath().getParent();
        if (parent != null) Files.createDirectories(parent);
        // Refuse anything but a regular file: a FIFO would block, /dev/stdout would corrupt the hook's answer.
        if (Files.exists(path) && !Files.isRegularFile(path)) throw new IOException("not a regular file");
        if (isStdout(path)) throw new IOException("refusing to log to stdout");
        boolean rotating = maxBytes > 0;
        JVM_LOCK.lock();
        try {
            if (!rotating) {
                try (FileChannel ch = FileChannel.open(path,
                        StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
                    FileLock lock = acquire(ch);
                    try {
                        write(ch, bytes);
                    } finally {
                        release(lock);
                    }
                }
                return;
            }
            Path lockPath = path.resolveSibling(path.getFileName() + ".lock");
            try (FileChannel lockCh = FileChannel.open(lockPath, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
                FileLock lock = acquire(lockCh);
                try {
                    if (Files.isRegularFile(path) && Files.size(path) >= maxBytes) rotate(path, Math.max(1, keep));
                    try (FileChannel ch = FileChannel.open(path,
                            StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
                        write(ch, bytes);
                    }
                } finally {
                    release(lock);
                }
            }
        } finally {
            JVM_LOCK.unlock();
        }
    }

    /**
     * The rotated generation {@code n} of {@code path}: {@code path.n}.
     *
     * @param path the log file
     * @param n    the generation, from 1 (newest)
     * @return the path of that generation
     */
    public static Path generation(Path path, int n) {
        return path.resolveSibling(path.getFileName() + "." + n);
    }

    private static void rotate(Path path, int keep) throws IOException {
        Files.deleteIfExists(generation(path, keep));
        for (int i = keep - 1; i >= 1; i--) {
            Path from = generation(path, i);
            if (Files.exists(from)) Files.move(from, generation(path, i + 1), StandardCopyOption.REPLACE_EXISTING);
        }
        Files.move(path, generation(path, 1), StandardCopyOption.REPLACE_EXISTING);
    }

    private static void write(FileChannel ch, byte[] bytes) throws IOException {
        ByteBuffer buf = ByteBuffer.wrap(bytes);
        while (buf.hasRemaining()) ch.write(buf);
    }

    private static void release(FileLock lock) {
        if (lock == null) return;
        try {
            lock.release();
        } catch (IOException ignored) {
            // closing the channel releases it anyway
        }
    }

    /**
     * Takes an exclusive lock on the whole file, waiting at most {@link #LOCK_WAIT_MILLIS}; after that (or when
     * the file system does not support locks) returns null and the write goes ahead unlocked.
     */
    private static FileLock acquire(FileChannel ch) {
        long deadline = System.nanoTime() + LOCK_WAIT_MILLIS * 1_000_000L;
        try {
            while (true) {
                FileLock lock = ch.tryLock();
                if (lock != null) return lock;
                if (System.nanoTime() > deadline) return null;
                Thread.sleep(2);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } catch (IOException | OverlappingFileLockException | UnsupportedOperationException e) {
            return null;
        }
    }

    /** True when {@code p} is the same file as this process's stdout (Linux /proc only). */
    private static boolean isStdout(Path p) {
        try {
            Path fd1 = Path.of("/proc/self/fd/1");
            if (!Files.exists(fd1) || !Files.exists(p)) return false;
            Object a = Files.readAttributes(p, BasicFileAttributes.class).fileKey();
            Object b = Files.readAttributes(fd1, BasicFileAttributes.class).fileKey();
            return a != null && Objects.equals(a, b);
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }
}
