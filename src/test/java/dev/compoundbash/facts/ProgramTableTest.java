package dev.compoundbash.facts;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The path words {@link ProgramTable} finds, and its data (the schemas' {@code paths}, {@code programs/NAME.json}) checked against the
 * programs installed here: every option the table says names a file, or makes a traversal follow links, is one
 * the program's own {@code --help} or man page lists (GNU coreutils 9.1, diffutils 3.8, findutils 4.9, grep 3.8,
 * sed 4.9, file 5.44, util-linux hexdump, git-diff(1); a program that is not installed, or an awk that is not
 * gawk, is skipped).
 */
class ProgramTableTest {

    private static List<ProgramTable.Operand> operands(String... argv) {
        List<Arg> args = Arrays.stream(argv).map(Arg::literal).toList();
        return ProgramTable.operands(ProgramTable.programs().get(argv[0]), args);
    }

    private static List<String> words(List<ProgramTable.Operand> ops, String access) {
        return ops.stream().filter(o -> o.access().equals(access)).map(o -> o.arg().known() ? o.arg().text()
                : "?").toList();
    }

    private static List<String> recursive(List<ProgramTable.Operand> ops) {
        return ops.stream().filter(ProgramTable.Operand::recursive).map(o -> o.arg().text()).toList();
    }

    /**
     * git's subcommands name the files of their {@code paths.subcommands} entry (git.json): message files read,
     * outputs written, {@code REV:PATH} read, staging read below its operands, {@code --prefix} completed to the
     * protected directories (git 2.39: {@code checkout-index --prefix=.cla ude/x} wrote {@code .claude/x}).
     */
    @Test
    void gitSubcommandsNameTheirFiles() {
        assertThat(words(operands("git", "commit", "-F", ".env"), "read")).containsExactly(".env");
        assertThat(words(operands("git", "commit", "-m", "msg"), "read")).isEmpty();
        assertThat(words(operands("git", "show", ":.env", "HEAD"), "read")).containsExactly(".env");
        assertThat(words(operands("git", "show", ":0:.env"), "read")).containsExactly(".env");
        assertThat(words(operands("git", "show", "HEAD:./src/a"), "read")).containsExactly("src/a");
        // with no pathspec, add -A, add -u and stash -u cover the whole work tree (git-add(1) "-A")
        assertThat(recursive(operands("git", "add", "-A"))).containsExactly(ProgramTable.WORK_TREE_TOP);
        assertThat(recursive(operands("git", "add", "src"))).containsExactly("src");
        assertThat(recursive(operands("git", "grep", "--untracked", "x"))).containsExactly(".");
        assertThat(recursive(operands("git", "grep", "x"))).isEmpty();
        assertThat(recursive(operands("git", "diff", "--no-index", ".", "sub"))).contains(".", "sub");
        assertThat(recursive(operands("git", "stash", "-u"))).containsExactly(ProgramTable.WORK_TREE_TOP);
        assertThat(recursive(operands("git", "stash"))).isEmpty();
        assertThat(words(operands("git", "clone", "-b", "main", "url", "dir"), "write")).containsExactly("dir");
        assertThat(words(operands("git", "clone", "url"), "write")).isEmpty();
        assertThat(words(operands("git", "worktree", "add", "-b", "x", "w", "HEAD"), "write")).containsExactly("w",
                "HEAD");
        assertThat(words(operands("git", "archive", "-o", "x.tar", "HEAD"), "write")).containsExactly("x.tar");
        assertThat(words(operands("git", "checkout-index", "--prefix=.cla", "ude/x"), "write")).contains(".cla",
                ".claude/", "ude/x");
        assertThat(words(operands("git", "checkout-index", "--prefix=build/", "-a"), "write"))
                .containsExactly("build/");
        assertThat(words(operands("git", "status"), "read")).isEmpty();
    }

    /** grep reads below a directory with -r, -R, -d recurse (spelled any way getopt_long takes); rg always. */
    @Test
    void recursiveReadsAreMarked() {
        assertThat(recursive(operands("grep", "-r", "x", "src"))).containsExactly("src");
        assertThat(recursive(operands("grep", "--recursive", "x", "src"))).containsExactly("src");
        assertThat(recursive(operands("grep", "-d", "recurse", "x", "src"))).containsExactly("src");
        assertThat(recursive(operands("grep", "-drecurse", "x", "src"))).containsExactly("src");
        assertThat(recursive(operands("grep", "--dir=recurse", "x", "src"))).containsExactly("src");
        assertThat(recursive(operands("grep", "--directories", "recurse", "x", "src"))).containsExactly("src");
        assertThat(recursive(operands("grep", "-ril", "x"))).containsExactly(".");
        assertThat(recursive(operands("grep", "-d", "skip", "x", "src"))).isEmpty();
        assertThat(recursive(operands("grep", "x", "src"))).isEmpty();
        assertThat(recursive(operands("rg", "x"))).containsExactly(".");
        assertThat(recursive(operands("rg", "x", "src"))).containsExactly("src");
        assertThat(recursive(operands("cat", "src"))).isEmpty();
    }

    /**
     * git's pathspecs (gitglossary(7) "pathspec", measured with git 2.39: {@code git add '*.env'},
     * {@code ':(icase).ENV'}, {@code '.e*'}, {@code '\.env'}, {@code ':!a.txt'} and {@code ':/'} all staged
     * {@code .env}): a pattern reads every file below the directory before its first fnmatch character, case
     * ignored reads below the working directory, {@code :/} and exclusions read the whole work tree; a plain
     * pathspec is itself, read below when it is a directory; {@code :(literal)} is its text.
     */
    @Test
    void gitPathspecsReadWhatTheyMayMatch() {
        assertThat(recursive(operands("git", "add", "*.env"))).containsExactly(".");
        assertThat(recursive(operands("git", "add", "src/*.c"))).containsExactly("src/");
        assertThat(recursive(operands("git", "add", "\\.env"))).containsExactly(".");
        assertThat(recursive(operands("git", "add", "[.]env"))).containsExactly(".");
        assertThat(recursive(operands("git", "add", ":(icase)src/.ENV"))).containsExactly(".");
        assertThat(recursive(operands("git", "--icase-pathspecs", "add", ".ENV"))).containsExactly(".");
        assertThat(recursive(operands("git", "add", ":(glob)src/**/*.c"))).containsExactly("src/");
        assertThat(recursive(operands("git", "add", ":/"))).containsExactly(ProgramTable.WORK_TREE_TOP);
        assertThat(recursive(operands("git", "add", ":!a.txt"))).containsExactly(ProgramTable.WORK_TREE_TOP);
        assertThat(recursive(operands("git", "add", ":(exclude)a.txt"))).containsExactly(ProgramTable.WORK_TREE_TOP);
        assertThat(words(operands("git", "add", ":(literal)*.env"), "read")).containsExactly("*.env");
        assertThat(words(operands("git", "add", ":.env"), "read")).containsExactly(".env");
        assertThat(words(operands("git", "stage", ".env"), "read")).containsExactly(".env");
        // commit names pathspecs after its valued options, a cluster's last letter included (-am MSG)
        assertThat(words(operands("git", "commit", "-am", "fix *all*"), "read")).isEmpty();
        assertThat(words(operands("git", "commit", "-m", "x", ".env"), "read")).containsExactly(".env");
        assertThat(recursive(operands("git", "commit", "-a", "-m", "x"))).isEmpty();
        // paths read from standard input are only known at run time
        assertThat(words(operands("git", "update-index", "--add", "--stdin"), "read")).containsExactly("?");
        assertThat(words(operands("git", "hash-object", "--stdin-paths"), "read")).containsExactly("?");
    }

    /** git mv reads its sources (their content moves to the destination) and writes every operand. */
    @Test
    void gitMvReadsItsSources() {
        assertThat(words(operands("git", "mv", ".env", "notes.txt"), "read")).containsExactly(".env");
        assertThat(words(operands("git", "mv", "-f", "a", "b", "dir/"), "read")).containsExactly("a", "b");
        assertThat(words(operands("git", "mv", ".env", "notes.txt"), "write")).containsExactly(".env", "notes.txt");
    }

    /** git mv, git rm and git restore write every operand; -C makes them unknown. */
    @Test
    void gitWorkTreeWritesAreWrites() {
        assertThat(words(operands("git", "mv", "-f", "a", "link/a"), "write")).containsExactly("a", "link/a");
        assertThat(words(operands("git", "rm", "-r", "--cached", "src"), "write")).containsExactly("src");
        assertThat(words(operands("git", "restore", "--", ".env"), "write")).containsExactly(".env");
        assertThat(words(operands("git", "-C", "sub", "mv", "a", "b"), "write")).containsExactly("?");
        assertThat(words(operands("git", "status"), "write")).isEmpty();
    }

    @Test
    void optionValuesAreReadPaths() {
        assertThat(words(operands("date", "-uf", "x"), "read")).containsExactly("x");
        assertThat(words(operands("date", "--reference=r", "+%s"), "read")).containsExactly("r");
        assertThat(words(operands("diff", "--from=f", "a"), "read")).contains("f", "a");
        assertThat(words(operands("diff", "a", "-X", "ex", "b"), "read")).contains("ex");
        assertThat(words(operands("xargs", "-0a", "list", "echo"), "read")).containsExactly("list");
        assertThat(words(operands("file", "-m", "m1:m2", "a"), "read")).contains("m1", "m2", "a");
        assertThat(words(operands("touch", "-r", "ref", "new"), "read")).containsExactly("ref");
    }

    @Test
    void fileNameListsAndStandardInputAreUnknown() {
        assertThat(words(operands("wc", "--files0-from=-"), "read")).containsExactly("?");
        assertThat(words(operands("wc", "--files0-from=list"), "read")).containsExactly("list", "?");
        assertThat(words(operands("file", "-f", "-"), "read")).containsExactly("?");
        assertThat(words(operands("md5sum", "-c", "sums"), "read")).containsExactly("sums", "?");
        assertThat(words(operands("md5sum", "-c"), "read")).containsExactly("?");
        assertThat(words(operands("find", ".", "-files0-from", "l"), "read")).contains("l", "?");
        assertThat(words(operands("strings", "@resp", "a"), "read")).containsExactly("resp", "?", "a");
        assertThat(words(operands("cat", "-"), "read")).isEmpty();
    }

    @Test
    void writtenOperandsAndOptions() {
        assertThat(words(operands("sort", "-o", "out", "in"), "write")).containsExactly("out");
        assertThat(words(operands("uniq", "-c", "in", "out"), "write")).containsExactly("out");
        assertThat(words(operands("uniq", "-f", "1", "in"), "write")).isEmpty();
        assertThat(words(operands("uniq", "in", "-"), "write")).isEmpty();
        assertThat(words(operands("xxd", "in", "out"), "write")).containsExactly("out");
        assertThat(words(operands("sed", "--i", "s/a/b/", "f"), "write")).containsExactly("f");
    }

    @Test
    void followingTraversalsMarkTheirOperandsAndTheWorkingDirectory() {
        assertThat(operands("grep", "-r", "x", "d").stream().anyMatch(ProgramTable.Operand::followsInto)).isFalse();
        assertThat(operands("grep", "-iR", "x").stream().filter(ProgramTable.Operand::followsInto)
                .map(o -> o.arg().text())).containsExactly(".");
        assertThat(operands("ls", "-l", "-R").stream().anyMatch(ProgramTable.Operand::followsInto)).isFalse();
        assertThat(operands("ls", "-lLR", "d").stream().filter(ProgramTable.Operand::followsInto)
                .map(o -> o.arg().text())).containsExactly("d", ".");
        assertThat(operands("find", "-L", "d").stream().filter(ProgramTable.Operand::followsInto)
                .map(o -> o.arg().text())).contains("d");
        assertThat(operands("find", "d", "-follow").stream().anyMatch(ProgramTable.Operand::followsInto)).isTrue();
        assertThat(operands("diff", "d2", "d3").stream().allMatch(ProgramTable.Operand::followsInto)).isTrue();
        assertThat(operands("diff", "--no-dereference", "d2", "d3").stream()
                .anyMatch(ProgramTable.Operand::followsInto)).isFalse();
    }

    @Test
    void aRunTimeWordThatMayBeAnOptionMakesAnUnknownPath() {
        List<Arg> args = List.of(Arg.literal("wc"), Arg.unknown("$o"));
        assertThat(ProgramTable.operands(ProgramTable.programs().get("wc"), args).stream()
                .anyMatch(o -> !o.arg().known())).isTrue();
    }

    @Test
    void findPathsStayInsideOnlyForNonLinkTypesWithoutFollowing() {
        assertThat(stay("find . -type f -name x -exec cat {} ;", 7)).isTrue();
        assertThat(stay("find . -type f,d -exec cat {} ;", 5)).isTrue();
        assertThat(stay("find . -name x -exec cat {} ;", 5)).isFalse();
        assertThat(stay("find . -type l -exec cat {} ;", 5)).isFalse();
        assertThat(stay("find . -xtype f -exec cat {} ;", 5)).isFalse();
        assertThat(stay("find -L . -type f -exec cat {} ;", 6)).isFalse();
        assertThat(stay("find . -type f -follow -exec cat {} ;", 6)).isFalse();
        assertThat(stay("find . -type f -o -name x -exec cat {} ;", 8)).isFalse();
        assertThat(stay("find . ! -type d -exec cat {} ;", 6)).isFalse();
    }

    private static boolean stay(String command, int payloadFrom) {
        List<Arg> args = Arrays.stream(command.split(" ")).map(Arg::literal).toList();
        assertThat(args.get(payloadFrom - 1).text()).startsWith("-exec");
        return FactExtractor.findPathsStayInside(args, payloadFrom);
    }

    @Test
    void loopWordsAreSubstitutedIntoWords() {
        Map<String, List<Arg>> loops = Map.of("d", List.of(Arg.literal(".git"), Arg.literal("sub")),
                "e", List.of(Arg.literal("a b")));
        assertThat(PathResolver.substituted(List.of(new Arg.Piece(null, "d", false), new Arg.Piece("/config", null,
                false)), loops)).containsExactly(".git/config", "sub/config");
        // an unquoted value with white space would be split: not substituted
        assertThat(PathResolver.substituted(List.of(new Arg.Piece(null, "e", false)), loops)).isNull();
        assertThat(PathResolver.substituted(List.of(new Arg.Piece(null, "e", true)), loops)).containsExactly("a b");
        assertThat(PathResolver.substituted(List.of(new Arg.Piece(null, "x", true)), loops)).isNull();
    }

    @Test
    void everyOptionTheTableNamesIsOneTheProgramLists() throws Exception {
        List<String> missing = new ArrayList<>();
        int checked = 0;
        for (ProgramSchemas.Schema schema : ProgramSchemas.all().values()) {
            ProgramSchemas.Paths paths = schema.paths();
            if (paths == null) continue;
            for (String name : schema.names()) {
            Map.Entry<String, ProgramSchemas.Paths> e = Map.entry(name, paths);
            List<String> spellings = new ArrayList<>();
            e.getValue().options().keySet().forEach(k -> spellings.addAll(List.of(k.split("\\|"))));
            for (String f : e.getValue().follows()) {
                for (String g : f.split(" \\+ ")) spellings.addAll(List.of(g.trim().split("\\|")));
            }
            if (e.getValue().followsDirectories() != null) spellings.add(e.getValue().followsDirectories());
            if (spellings.isEmpty()) continue;
            String help = help(e.getKey());
            if (help == null) continue;
            // git: the manuals of the subcommands whose options the path table names (diff --output, blame --contents ...)
            help += man(e.getKey()) + (e.getKey().equals("git")
                    ? man("git-diff") + man("git-blame") + man("git-ls-files") + man("git-add") : "");
            if (e.getKey().endsWith("awk") && !help(e.getKey(), "--version").contains("GNU Awk")) continue;
            checked++;
            for (String s : spellings) {
                if (!Pattern.compile("(^|[\\s,\\[])" + Pattern.quote(s) + "([\\s,=\\[\\]]|$)", Pattern.MULTILINE)
                        .matcher(help).find()) missing.add(e.getKey() + " " + s);
            }
            }
        }
        // git's paths.subcommands: each option is one the subcommand's manual lists (git-SUB(1), diff options too)
        ProgramSchemas.Paths git = ProgramSchemas.of("git").paths();
        for (Map.Entry<String, ProgramSchemas.SubcommandPaths> e : git.subcommands().entrySet()) {
            String page = man("git-" + e.getKey());
            if (page.isEmpty()) continue;
            // git-stage(1): "This is a synonym for git-add(1)": the options are the other page's
            java.util.regex.Matcher synonym = Pattern.compile("synonym\\s+for\\s+\\W*(?:fB)?(git-[a-z-]+)").matcher(page);
            if (synonym.find()) page += man(synonym.group(1));
            page += man("git-diff");
            checked++;
            List<String> spellings = new ArrayList<>();
            e.getValue().options().keySet().forEach(k -> spellings.addAll(List.of(k.split("\\|"))));
            for (String f : e.getValue().recursive()) {
                for (String g : f.split(" \\+ ")) if (!g.isBlank()) spellings.addAll(List.of(g.trim().split("\\|")));
            }
            for (String s : spellings) {
                // a value written attached in the manual too: -o<directory> (git-mailsplit(1))
                if (!Pattern.compile("(^|[\\s,\\[])" + Pattern.quote(s) + "([\\s,=<\\[\\]]|$)", Pattern.MULTILINE)
                        .matcher(page).find()) missing.add("git " + e.getKey() + " " + s);
            }
        }
        assertThat(missing).isEmpty();
        org.junit.jupiter.api.Assumptions.assumeTrue(checked > 0, "none of the programs is installed");
    }

    /** The program's man page as text (roff's {@code \-} read as {@code -}), or "" when it is not installed. */
    private static String man(String page) throws Exception {
        Path p = Path.of("/usr/share/man/man1", page + ".1.gz");
        if (!Files.isRegularFile(p)) return "";
        try (InputStream in = new java.util.zip.GZIPInputStream(Files.newInputStream(p))) {
            return "\n" + new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("\\-", "-");
        }
    }

    private static String help(String program) throws Exception {
        return help(program, "--help");
    }

    /** The program's output for one option, or null when it is not installed. */
    private static String help(String program, String option) throws Exception {
        boolean found = false;
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, program))) found = true;
        }
        if (!found) return null;
        Process p = new ProcessBuilder(program, option).redirectErrorStream(true).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(10, TimeUnit.SECONDS)) p.destroyForcibly();
        return out;
    }
}
