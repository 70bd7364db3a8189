package dev.compoundbash.facts;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.compoundbash.rules.TierArguments;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The program schemas ({@code src/main/resources/programs/}, docs/PROGRAMS.md): every file loads and is well formed,
 * the loader rejects what the format does not have, and every name a schema gives (a payload reader, a tier check, a
 * name list, an option grammar) is one the code has.
 */
class ProgramSchemasTest {
    static final Path DIR = Path.of("src/main/resources/programs");
    static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void everyFileLoadsAndEveryNameIsClaimedOnce() throws Exception {
        List<String> onDisk;
        try (Stream<Path> s = Files.list(DIR)) {
            onDisk = s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".json")).sorted().toList();
        }
        assertThat(ProgramSchemas.files()).containsExactlyElementsOf(onDisk);
        Map<String, ProgramSchemas.Schema> all = ProgramSchemas.all();
        assertThat(all).hasSize(onDisk.size());
        for (String f : onDisk) {
            // each file read on its own, strictly, as the loader reads it
            ProgramSchemas.Schema s = ProgramSchemas.schema(f, JSON.readTree(DIR.resolve(f).toFile()));
            assertThat(s.names()).as(f).isNotEmpty();
            assertThat(s.source()).as(f).isNotBlank();
            for (String n : s.names()) assertThat(ProgramSchemas.of(n)).as(n).isNotNull();
        }
        assertThat(ProgramSchemas.of("gawk").file()).isEqualTo("awk.json");
        assertThat(ProgramSchemas.ofCommand("/usr/bin/git").name()).isEqualTo("git");
        assertThat(ProgramSchemas.of("no-such-program")).isNull();
    }

    @Test
    void theLoaderRejectsWhatTheFormatDoesNotHave() throws Exception {
        assertThatThrownBy(() -> ProgramSchemas.schema("x.json", JSON.readTree("{\"names\":[\"x\"],\"source\":\"s\",\"colour\":1}")))
                .hasMessageContaining("unknown field colour");
        assertThatThrownBy(() -> ProgramSchemas.schema("x.json", JSON.readTree("{\"names\":[\"x\"]}")))
                .hasMessageContaining("no source");
        assertThatThrownBy(() -> ProgramSchemas.schema("x.json", JSON.readTree("{\"source\":\"s\"}")))
                .hasMessageContaining("no names");
        assertThatThrownBy(() -> ProgramSchemas.schema("x.json", JSON.readTree(
                "{\"names\":[\"x\"],\"source\":\"s\",\"options\":{\"style\":\"pflag\",\"declared\":[\"-n <harmless>\"]}}")))
                .hasMessageContaining("unknown role harmless");
        assertThatThrownBy(() -> ProgramSchemas.schema("x.json", JSON.readTree(
                "{\"names\":[\"x\"],\"source\":\"s\",\"options\":{\"style\":\"argh\"}}")))
                .hasMessageContaining("unknown style argh");
        assertThatThrownBy(() -> ProgramSchemas.schema("x.json", JSON.readTree(
                "{\"names\":[\"x\"],\"source\":\"s\",\"subcommands\":{\"a\":{\"alias\":[\"b\"]}}}")))
                .hasMessageContaining("unknown field alias");
        assertThatThrownBy(() -> ProgramSchemas.schema("x.json", JSON.readTree(
                "{\"names\":[\"x\"],\"source\":\"s\",\"config\":{\"keys\":{\"a.b\":\"dangerous\"}}}")))
                .hasMessageContaining("unknown key role dangerous");
        assertThatThrownBy(() -> ProgramSchemas.declared("-n <inert> extra")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void optionDeclarationsReadAsTheFormatSays() {
        ProgramSchemas.Declared d = ProgramSchemas.declared("-n|--namespace <inert>");
        assertThat(d.spellings()).containsExactly("-n", "--namespace");
        assertThat(d.argument()).isEqualTo(OptionGrammar.Argument.REQUIRED);
        d = ProgramSchemas.declared("--exec-path[=<runs>]");
        assertThat(d.spellings()).containsExactly("--exec-path");
        assertThat(d.argument()).isEqualTo(OptionGrammar.Argument.OPTIONAL);
        assertThat(d.role()).isEqualTo("runs");
        d = ProgramSchemas.declared("--help !exits");
        assertThat(d.argument()).isEqualTo(OptionGrammar.Argument.NONE);
        assertThat(d.role()).isEqualTo("exits");
        assertThat(ProgramSchemas.declared("-p|--paginate").role()).isEqualTo("inert");
    }

    @Test
    void everyNameASchemaGivesIsOneTheCodeHas() {
        List<String> problems = new ArrayList<>();
        for (ProgramSchemas.Schema s : ProgramSchemas.all().values()) {
            for (String n : s.names()) {
                try {
                    if (s.payload() != null) WrapperGrammar.unwrap(List.of(n, "x"));
                    if (s.tier() != null) TierArguments.safe(List.of(Arg.literal(n), Arg.literal("x")), false);
                } catch (RuntimeException e) {
                    problems.add(s.file() + " " + n + ": " + e.getMessage());
                }
            }
            for (String l : s.lists()) {
                if (!NameList.of(l).contains(s.name())) problems.add(s.file() + ": not on its list " + l);
            }
            // an option table written as the source declares it builds a grammar
            if (s.options() != null && s.options().optstring() != null) {
                try {
                    OptionGrammar.named(s.name());
                } catch (RuntimeException e) {
                    problems.add(s.file() + ": " + e.getMessage());
                }
            }
        }
        assertThat(problems).isEmpty();
    }
}
