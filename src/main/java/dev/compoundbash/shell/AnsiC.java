package dev.compoundbash.shell;

/**
 * Decodes the text of an ANSI-C quoted string {@code $'...'} (Bash Reference Manual §3.1.2.4 "ANSI-C Quoting").
 */
public final class AnsiC {
    private AnsiC() {
    }

    /**
     * Decodes the backslash escapes of {@code raw}, the text between {@code $'} and {@code '}, as bash's
     * {@code ansicstr} (lib/sh/strtrans.c, flags 2) does: {@code \a \b \e \E \f \n \r \t \v \\ \' \" \?},
     * octal {@code \nnn}, {@code \xHH} and {@code \x{H...}}, {@code &#92;uHHHH}, {@code &#92;UHHHHHHHH} and
     * {@code \cX}. Unknown escapes are kept as written. Octal and hex escapes make one byte, {@code &#92;u} and
     * {@code &#92;U} the UTF-8 bytes of the code point (lib/sh/unicode.c {@code u32toutf8}, up to six bytes), as in a
     * UTF-8 locale, the locale Claude Code's shells normally run in (in the C locale bash writes the escape itself,
     * {@code &#92;u00E9}: the same argument spelt otherwise, never a different one; see {@link #localeDependent} for
     * where that matters); the bytes are then read as UTF-8 by {@link #text(byte[])}, so a byte that is no part of a UTF-8
     * character stays a byte. As in bash, the value ends at the first NUL byte an escape produces (bash strings
     * are C strings). Never throws.
     *
     * @param raw the quoted text as written
     * @return the decoded value
     */
    public static String decode(String raw) {
        if (raw.indexOf('\\') < 0) return raw;
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(raw.length() + 8);
        int n = raw.length();
        decoding:
        for (int i = 0; i < n; i++) {
            char c = raw.charAt(i);
            if (c != '\\' || i + 1 >= n) {
                int cp = Character.codePointAt(raw, i);
                if (Character.charCount(cp) == 2) i++;
                bytes(cp, out);
                continue;
            }
            char e = raw.charAt(++i);
            int b; // one byte, or -1 when the escape wrote its bytes itself
            switch (e) {
                case 'a' -> b = 7;
                case 'b' -> b = 8;
                case 'e', 'E' -> b = 27;
                case 'f' -> b = 12;
                case 'n' -> b = 10;
                case 'r' -> b = 13;
                case 't' -> b = 9;
                case 'v' -> b = 11;
                case '\\', '\'', '"', '?' -> b = e;
                case '0', '1', '2', '3', '4', '5', '6', '7' -> {
                    int v = 0, k = 0;
                    while (k < 3 && i < n && raw.charAt(i) >= '0' && raw.charAt(i) <= '7') {
                        v = v * 8 + (raw.charAt(i) - '0');
                        i++;
                        k++;
                    }
                    i--;
                    b = v & 0xFF;
                }
                case 'x' -> {
                    boolean braced = i + 1 < n && raw.charAt(i + 1) == '{';
                    if (braced) i++;
                    int v = 0, k = 0;
                    while ((braced || k < 2) && i + 1 < n && Character.digit(raw.charAt(i + 1), 16) >= 0) {
                        v = v * 16 + Character.digit(raw.charAt(i + 1), 16);
                        i++;
                        k++;
                    }
                    if (braced) {
                        if (i + 1 < n && raw.charAt(i + 1) == '}') i++;
                    } else if (k == 0) {
                        out.write('\\');
                        out.write('x');
                        continue;
                    }
                    b = v & 0xFF;
                }
                case 'u', 'U' -> {
                    int max = e == 'u' ? 4 : 8;
                    long v = 0;
                    int k = 0;
                    while (k < max && i + 1 < n && Character.digit(raw.charAt(i + 1), 16) >= 0) {
                        v = v * 16 + Character.digit(raw.charAt(i + 1), 16);
                        i++;
                        k++;
                    }
                    if (k == 0) {
                        out.write('\\');
                        out.write(e);
                        continue;
                    }
                    if (v == 0) break decoding;
                    if (v <= 0x7F) {
                        b = (int) v;
                    } else {
                        utf8(v, out);
                        b = -1;
                    }
                }
                case 'c' -> {
                    if (i + 1 < n) {
                        char x = raw.charAt(++i);
                        if (x == '\\' && i + 1 < n && raw.charAt(i + 1) == '\\') i++;
                        b = x == '?' ? 0x7F : (Character.toUpperCase(x) & 0x1F);
                    } else {
                        out.write('\\');
                        out.write('c');
                        continue;
                    }
                }
                default -> {
                    out.write('\\');
                    bytes(e, out);
                    continue;
                }
            }
            if (b == 0) break;
            if (b > 0) out.write(b);
        }
        return text(out.toByteArray());
    }

    /**
     * Whether the value of {@code raw} (the text between {@code $'} and {@code '}) depends on the locale bash runs
     * in: a {@code &#92;u} or {@code &#92;U} escape above U+007F is the character's bytes in the locale's charset
     * (lib/sh/unicode.c {@code u32cconv}: UTF-8 in a UTF-8 locale, the escape itself as {@code &#92;u00E9} in the C
     * locale, one byte in ISO-8859-1). {@link #decode} gives the UTF-8 reading.
     *
     * @param raw the quoted text as written
     * @return true when some escape's value is only known with the locale
     */
    public static boolean localeDependent(String raw) {
        int n = raw.length();
        for (int i = 0; i + 1 < n; i++) {
            if (raw.charAt(i) != '\\') continue;
            char e = raw.charAt(++i);
            if (e != 'u' && e != 'U') continue;
            int max = e == 'u' ? 4 : 8;
            long v = 0;
            int k = 0;
            while (k < max && i + 1 < n && Character.digit(raw.charAt(i + 1), 16) >= 0) {
                v = v * 16 + Character.digit(raw.charAt(i + 1), 16);
                i++;
                k++;
            }
            if (k > 0 && v > 0x7F) return true;
        }
        return false;
    }

    /** The bytes of one character of hook text: a {@link #text(byte[]) byte stand-in} is its byte. */
    private static void bytes(int cp, java.io.ByteArrayOutputStream out) {
        if (cp >= 0xDC80 && cp <= 0xDCFF) out.write(cp & 0xFF);
        else utf8(cp, out);
    }

    /** bash's {@code u32toutf8} (lib/sh/unicode.c): one to six bytes; nothing from 0x80000000 up. */
    private static void utf8(long wc, java.io.ByteArrayOutputStream out) {
        if (wc < 0x80) {
            out.write((int) wc);
            return;
        }
        int len = wc < 0x800 ? 2 : wc < 0x10000 ? 3 : wc < 0x200000 ? 4 : wc < 0x4000000 ? 5 : wc < 0x80000000L ? 6 : 0;
        if (len == 0) return;
        int lead = new int[]{0, 0, 0xC0, 0xE0, 0xF0, 0xF8, 0xFC}[len];
        out.write((int) (lead | (wc >> (6 * (len - 1)))));
        for (int k = len - 2; k >= 0; k--) out.write((int) (0x80 | ((wc >> (6 * k)) & 0x3F)));
    }

    /**
     * Reads bytes as UTF-8 text the way the hook holds bash's values: every well-formed UTF-8 character (no
     * overlong form, no surrogate, at most U+10FFFF) is that character; every other byte B is the stand-in
     * character U+DC00+B (a lone low surrogate, never part of well-formed text; Python's "surrogateescape"), so a
     * value made of bytes that are not text stays exact and distinct from every text. {@link #bytes(String)} is
     * the inverse.
     *
     * @param b bytes, as bash holds a value
     * @return the hook's text for them
     */
    public static String text(byte[] b) {
        StringBuilder sb = new StringBuilder(b.length);
        int n = b.length;
        for (int i = 0; i < n; ) {
            int c = b[i] & 0xFF;
            if (c < 0x80) {
                sb.append((char) c);
                i++;
                continue;
            }
            int len = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
            int cp = len == 2 ? c & 0x1F : len == 3 ? c & 0x0F : c & 0x07;
            boolean ok = len > 0 && i + len <= n;
            for (int k = 1; ok && k < len; k++) {
                int cc = b[i + k] & 0xFF;
                if ((cc & 0xC0) != 0x80) ok = false;
                else cp = (cp << 6) | (cc & 0x3F);
            }
            int min = len == 2 ? 0x80 : len == 3 ? 0x800 : 0x10000;
            if (ok && cp >= min && cp <= 0x10FFFF && (cp < 0xD800 || cp > 0xDFFF)) {
                sb.appendCodePoint(cp);
                i += len;
            } else {
                sb.append((char) (0xDC00 | c));
                i++;
            }
        }
        return sb.toString();
    }

    /**
     * The bytes bash holds for hook text: the inverse of {@link #text(byte[])} (a stand-in U+DC80..U+DCFF is its
     * byte, every other character its UTF-8 bytes).
     *
     * @param s hook text
     * @return its bytes
     */
    public static byte[] bytes(String s) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(s.length() + 8);
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            bytes(cp, out);
            i += Character.charCount(cp);
        }
        return out.toByteArray();
    }

    /**
     * Text whose byte stand-ins ({@link #text(byte[])}) are read again as UTF-8 together with the text around
     * them, as bash reads the bytes of a value that concatenates pieces ({@code $'\xc3'$'\xa9'} is é); text
     * without stand-ins is returned as it is.
     *
     * @param s hook text
     * @return the same value with every well-formed UTF-8 character as a character
     */
    public static String joined(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 0xDC80 && c <= 0xDCFF) return text(bytes(s));
        }
        return s;
    }
}
