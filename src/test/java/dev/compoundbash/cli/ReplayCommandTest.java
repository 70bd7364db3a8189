package dev.compoundbash.cli;

import org.junit.jupiter.api.Test;

import java.time.OffsetDateTime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ReplayCommandTest {
    static final OffsetDateTime NOW = OffsetDateTime.parse("2026-11-30T12:00:00Z");

    @Test
    void sinceAcceptsAgesAndTimes() {
        assertThat(ReplayCommand.parseSince("7d", NOW)).isEqualTo(OffsetDateTime.parse("2026-11-23T12:00:00Z"));
        assertThat(ReplayCommand.parseSince("2w", NOW)).isEqualTo(OffsetDateTime.parse("2026-11-16T12:00:00Z"));
        assertThat(ReplayCommand.parseSince("90m", NOW)).isEqualTo(OffsetDateTime.parse("2026-11-30T10:30:00Z"));
        assertThat(ReplayCommand.parseSince("2026-11-01T08:00:00+01:00", NOW).toInstant().toString())
                .isEqualTo("2026-11-01T07:00:00Z");
        assertThat(ReplayCommand.parseSince("2026-11-01", NOW).toLocalDate().toString()).isEqualTo("2026-11-01");
        assertThatThrownBy(() -> ReplayCommand.parseSince("last week", NOW)).hasMessageContaining("--since");
    }
}
