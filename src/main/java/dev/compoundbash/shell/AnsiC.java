package dev.compoundbash.shell;

/**
 * Decodes the text of an ANSI-C quoted string {@code $'...'} (Bash Reference Manual §3.1.2.4 "ANSI-C Quoting").
 */
public final class AnsiC {
    private AnsiC() {
    }

    /**
     * Decodes the backslash escapes of {@code raw}, the text between {@code $'} and {@code '}: {@code \a \b \e \E
     * \f \n \r \t \v \\ \' \" \?}, octal {@code \nnn}, {@code \xHH}, {@code &#92;uHHHH}, {@code &#92;UHHHHHHHH} and
     * {@code \cX}. Unknown escapes are kept as written. As in bash, the value ends at the first NUL character an
     * escape produces (bash strings are C strings). Never throws.
     *
     * @param raw the quoted text as written
     * @return the decoded value
     */
    public static String decode(String raw) {
        if (raw.indexOf('\\') < 0) return raw;
        StringBuilder sb = new StringBuilder(raw.length());
        int n = raw.length();
        for (int i = 0; i < n; i++) {
            char c = raw.charAt(i);
            if (c != '\\' || i + 1 >= n) {
                sb.append(c);
                continue;
            }
            char e = raw.charAt(++i);
            int cp = -1;
            switch (e) {
                case 'a' -> cp = 7;
                case 'b' -> cp = 8;
                case 'e', 'E' -> cp = 27;
                case 'f' -> cp = 12;
                case 'n' -> cp = 10;
                case 'r' -> cp = 13;
                case 't' -> cp = 9;
                case 'v' -> cp = 11;
                case '\\', '\'', '"', '?' -> cp = e;
                case '0', '1', '2', '3', '4', '5', '6', '7' -> {
                    int v = 0, k = 0;
                    while (k < 3 && i < n && raw.charAt(i) >= '0' && raw.charAt(i) <= '7') {
                        v = v * 8 + (raw.charAt(i) - '0');
                        i++;
                        k++;
                    }
                    i--;
                    cp = v & 0xFF;
                }
                case 'x', 'u', 'U' -> {
                    int max = e == 'x' ? 2 : e == 'u' ? 4 : 8;
                    int v = 0, k = 0;
                    while (k < max && i + 1 < n && Character.digit(raw.charAt(i + 1), 16) >= 0) {
                        v = v * 16 + Character.digit(raw.charAt(i + 1), 16);
                        i++;
                        k++;
                    }
                    if (k == 0) {
                        sb.append('\\').append(e);
                        continue;
                    }
                    cp = (v < 0 || v > Character.MAX_CODE_POINT) ? 0xFFFD : v;
                }
                case 'c' -> {
                    if (i + 1 < n) {
                        char x = raw.charAt(++i);
                        if (x == '\\' && i + 1 < n && raw.charAt(i + 1) == '\\') i++;
                        cp = x == '?' ? 0x7F : (Character.toUpperCase(x) & 0x1F);
                    } else {
                        sb.append("\\c");
                        continue;
                    }
                }
                default -> {
                    sb.append('\\').append(e);
                    continue;
                }
            }
            if (cp == 0) return sb.toString();
            sb.appendCodePoint(cp);
        }
        return sb.toString();
    }
}
