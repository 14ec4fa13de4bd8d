/* accsim Fortran runtime: the library routines that the C translated from Fortran calls.
 * List-directed output follows libgfortran's write.c (Fortran 2003 §10.9.2): a record starts
 * with a blank; items are separated by one blank, except between two character items; integers
 * are right-aligned in 11 (kind 4) or 20 (kind 8) columns; reals use G editing with d = 9, e = 2
 * (kind 4) or d = 17, e = 3 (kind 8) in a field of 16 or 25 columns.
 * The C library routines it calls are declared by libc.h, which a translation starts with in
 * place of the system headers (no macro of theirs is used: end of file is getchar's -1). */
#include <openacc.h>

static int _fr_first;
static int _fr_charflag;
static FILE *_fr_unit;

static void _fr_begin(int unit) {
    _fr_first = 1;
    _fr_charflag = 0;
    _fr_unit = unit == 0 ? stderr : stdout;
}

static void _fr_sep(int is_char) {
    if (_fr_first) {
        _fr_first = 0;
        fputc(' ', _fr_unit);
    } else if (!(is_char && _fr_charflag)) {
        fputc(' ', _fr_unit);
    }
    _fr_charflag = is_char;
}

static void _fr_end(void) { fputc('\n', _fr_unit); }

static void _fr_int(long v, int width) {
    _fr_sep(0);
    fprintf(_fr_unit, "%*ld", width, v);
}

static void _fr_log(int v) {
    _fr_sep(0);
    fputc(v ? 'T' : 'F', _fr_unit);
}

static void _fr_str(const char *s, long n) {
    _fr_sep(1);
    fwrite(s, 1, n < 0 ? 0 : (size_t)n, _fr_unit);
}

/* Real `v` with `d` significant digits and `e` exponent digits as G editing writes it, into buf
 * (no leading blanks; `trail` receives the number of trailing blanks G editing adds). */
static void _fr_real_text(double v, int d, int e, char *buf, int *trail) {
    char tmp[64];
    *trail = 0;
    if (__builtin_isnan(v)) { strcpy(buf, "NaN"); return; }
    if (__builtin_isinf_sign(v)) { strcpy(buf, v < 0 ? "-Infinity" : "Infinity"); return; }
    snprintf(tmp, sizeof tmp, "%+.*e", d - 1, v);
    /* tmp: sign, digit, '.', d-1 digits, 'e', sign, exponent */
    char digits[40];
    int nd = 0;
    char *p = tmp + 1;
    while (*p && *p != 'e') {
        if (*p != '.') digits[nd++] = *p;
        p++;
    }
    digits[nd] = 0;
    int exp10 = atoi(p + 1);
    int neg = tmp[0] == '-';
    int k = v == 0.0 ? 1 : exp10 + 1; /* value = 0.digits * 10^k */
    char *o = buf;
    if (neg) *o++ = '-';
    if (k >= 0 && k <= d) {
        /* F editing with d - k decimals, then e + 2 blanks. */
        if (k == 0) {
            *o++ = '0';
            *o++ = '.';
            for (int i = 0; i < d; i++) *o++ = digits[i];
        } else {
            for (int i = 0; i < k; i++) *o++ = digits[i];
            *o++ = '.';
            for (int i = k; i < d; i++) *o++ = digits[i];
        }
        *o = 0;
        *trail = e + 2;
        return;
    }
    /* E editing with scale factor 1: d.ddd…E±xx */
    *o++ = digits[0];
    *o++ = '.';
    for (int i = 1; i < d; i++) *o++ = digits[i];
    *o++ = 'E';
    int x = exp10;
    *o++ = x < 0 ? '-' : '+';
    if (x < 0) x = -x;
    char ex[8];
    snprintf(ex, sizeof ex, "%0*d", e, x);
    strcpy(o, ex);
}

static void _fr_real(double v, int kind) {
    int d = kind == 8 ? 17 : 9, e = kind == 8 ? 3 : 2, w = kind == 8 ? 25 : 16;
    char buf[64];
    int trail;
    _fr_real_text(v, d, e, buf, &trail);
    _fr_sep(0);
    int len = (int)strlen(buf) + trail;
    for (int i = len; i < w; i++) fputc(' ', _fr_unit);
    fputs(buf, _fr_unit);
    for (int i = 0; i < trail; i++) fputc(' ', _fr_unit);
}

static void _fr_complex(double re, double im, int kind) {
    int d = kind == 8 ? 17 : 9, e = kind == 8 ? 3 : 2;
    char a[64], b[64];
    int ta, tb;
    _fr_real_text(re, d, e, a, &ta);
    _fr_real_text(im, d, e, b, &tb);
    _fr_sep(0);
    /* libgfortran right-justifies the pair in twice a real's list-directed width plus one
       (17 for kind 4, 26 for kind 8). */
    int field = 2 * (kind == 8 ? 26 : 17) + 1;
    int len = (int)strlen(a) + (int)strlen(b) + 3;
    for (int i = len; i < field; i++) fputc(' ', _fr_unit);
    fprintf(_fr_unit, "(%s,%s)", a, b);
}

static void _f_stop(int error, int has_code, long code, const char *msg, long msglen) {
    fflush(stdout);
    if (msg) {
        fprintf(stderr, "%s ", error ? "ERROR STOP" : "STOP");
        fwrite(msg, 1, (size_t)msglen, stderr);
        fputc('\n', stderr);
        exit(error ? 1 : 0);
    }
    if (has_code) {
        fprintf(stderr, "%s %ld\n", error ? "ERROR STOP" : "STOP", code);
        exit((int)code);
    }
    if (error) {
        fprintf(stderr, "ERROR STOP\n");
        exit(1);
    }
    exit(0);
}

/* Helpers device code may call are `routine seq` (OpenACC 2.0 §2.12.1). */
#pragma acc routine seq
static long _f_ipow(long b, long e) {
    if (e < 0) return b == 1 ? 1 : b == -1 ? (e % 2 ? -1 : 1) : 0;
    long r = 1;
    while (e > 0) {
        if (e & 1) r *= b;
        b *= b;
        e >>= 1;
    }
    return r;
}

#pragma acc routine seq
static double _f_dpowi(double b, long e) {
    double r = 1.0;
    long n = e < 0 ? -e : e;
    while (n > 0) {
        if (n & 1) r *= b;
        b *= b;
        n >>= 1;
    }
    return e < 0 ? 1.0 / r : r;
}

#pragma acc routine seq
static float _f_fpowi(float b, long e) {
    float r = 1.0f;
    long n = e < 0 ? -e : e;
    while (n > 0) {
        if (n & 1) r *= b;
        b *= b;
        n >>= 1;
    }
    return e < 0 ? 1.0f / r : r;
}

#pragma acc routine seq
static long _f_modulo_l(long a, long p) {
    long r = a % p;
    return (r != 0 && ((r < 0) != (p < 0))) ? r + p : r;
}

#pragma acc routine seq
static double _f_modulo_d(double a, double p) {
    double r = fmod(a, p);
    return (r != 0 && ((r < 0) != (p < 0))) ? r + p : r;
}

/* `x = max(x, e)` / `min` under `!$acc atomic` (Fortran's intrinsic-procedure forms, §2.12). */
#pragma acc routine seq
static double _f_atomic_max_d(double x, double e) { return e > x ? e : x; }
#pragma acc routine seq
static float _f_atomic_max_f(float x, float e) { return e > x ? e : x; }
#pragma acc routine seq
static int _f_atomic_max_i(int x, int e) { return e > x ? e : x; }
#pragma acc routine seq
static long _f_atomic_max_l(long x, long e) { return e > x ? e : x; }
#pragma acc routine seq
static double _f_atomic_min_d(double x, double e) { return e < x ? e : x; }
#pragma acc routine seq
static float _f_atomic_min_f(float x, float e) { return e < x ? e : x; }
#pragma acc routine seq
static int _f_atomic_min_i(int x, int e) { return e < x ? e : x; }
#pragma acc routine seq
static long _f_atomic_min_l(long x, long e) { return e < x ? e : x; }

/* The character helpers are `routine seq` too: device code compares, trims and assigns
   character data (OpenACC 2.0 §2.12.1). */
#pragma acc routine seq
static long _f_len_trim(const char *s, long n) {
    while (n > 0 && s[n - 1] == ' ') n--;
    return n;
}

/* Fortran character assignment: copy, truncating or padding with blanks. */
#pragma acc routine seq
static void _f_char_assign(char *dst, long dlen, const char *src, long slen) {
    long i;
    char tmp[4096];
    long n = slen < dlen ? slen : dlen;
    if (n > (long)sizeof tmp) n = (long)sizeof tmp;
    memcpy(tmp, src, (size_t)(n < 0 ? 0 : n));
    for (i = 0; i < n; i++) dst[i] = tmp[i];
    for (; i < dlen; i++) dst[i] = ' ';
}

/* Character comparison with the shorter operand padded with blanks: <0, 0, >0. */
#pragma acc routine seq
static int _f_char_cmp(const char *a, long alen, const char *b, long blen) {
    long n = alen > blen ? alen : blen;
    for (long i = 0; i < n; i++) {
        unsigned char x = i < alen ? (unsigned char)a[i] : ' ';
        unsigned char y = i < blen ? (unsigned char)b[i] : ' ';
        if (x != y) return x < y ? -1 : 1;
    }
    return 0;
}

/* `allocate` of an allocatable that is allocated already (Fortran 2003 §6.3.1.1): libgfortran's
 * message and exit status 2. */
static void _f_already_allocated(void) {
    fflush(stdout);
    fprintf(stderr, "Fortran runtime error: Attempting to allocate already allocated variable\n");
    exit(2);
}

/* The bytes `allocate` asks `malloc` for (at least 1, as libgfortran's allocate; the translator
 * writes the same computation inline for `allocate` statements and automatic arrays,
 * emit/types.rs `allocation_bytes`); the translation calls `malloc` itself, at the statement's
 * line, so that a heap block is known by the program's line (in `check`'s use-after-free,
 * double free and leak reports). */
static size_t _f_allocation_bytes(long count, long size, int already) {
    if (already) _f_already_allocated();
    if (count < 0) count = 0;
    return (size_t)(count * size > 0 ? count * size : 1);
}

/* `deallocate` of a variable or component that is not allocated (Fortran 2003 §6.3.3.1, an
 * error without `stat=`): libgfortran's message, which names the variable (of a component, the
 * variable it belongs to), and exit status 2. */
static void _f_not_allocated(const char *name) {
    fflush(stdout);
    fprintf(stderr, "Fortran runtime error: Attempt to DEALLOCATE unallocated '%s'\n", name);
    exit(2);
}

/* random_number and random_seed as libgfortran (GCC 9 and later) computes them: the
   xoshiro256** generator (Blackman and Vigna); a real(4) takes the high 32 bits of a draw with
   its low 8 bits cleared, a real(8) the 64 bits with the low 11 cleared, scaled by 2^-32 and
   2^-64; random_seed(put=s) takes the eight default integers of s, the last first, as four
   64-bit words and XORs them with fixed keys (libgfortran's scrambling); get= undoes that.
   Without a put= the state is libgfortran's built-in master state (gfortran itself seeds from
   the operating system then: its sequence differs from run to run, accsim's is fixed). */
static unsigned long _f_rng[4] = {0xad63fa1ed3b55f36UL, 0xd94473e78978b497UL, 0xbc60592a98172477UL, 0xa3de7c6e81265301UL};
static const unsigned long _f_rng_keys[4] = {0xbd0c5b6e50c2df49UL, 0xd46061cd46e1df38UL, 0xbb4f4d4ed6103544UL, 0x114a583d0756ad39UL};

static unsigned long _f_rng_rotl(unsigned long x, int k) { return (x << k) | (x >> (64 - k)); }

static unsigned long _f_rng_next(void) {
    unsigned long result = _f_rng_rotl(_f_rng[1] * 5, 7) * 9;
    unsigned long t = _f_rng[1] << 17;
    _f_rng[2] ^= _f_rng[0];
    _f_rng[3] ^= _f_rng[1];
    _f_rng[1] ^= _f_rng[2];
    _f_rng[0] ^= _f_rng[3];
    _f_rng[2] ^= t;
    _f_rng[3] = _f_rng_rotl(_f_rng[3], 45);
    return result;
}

static float _f_random4(void) {
    unsigned int high = (unsigned int)(_f_rng_next() >> 32);
    return (float)(high & 0xffffff00u) * (1.0f / 4294967296.0f);
}

static double _f_random8(void) {
    return (double)(_f_rng_next() & ~0x7ffUL) * (1.0 / 18446744073709551616.0);
}

static void _f_random_seed_size_error(const char *which) {
    fflush(stdout);
    fprintf(stderr, "Fortran runtime error: Array size of %s is too small.\n", which);
    exit(2);
}

/* put= of default integers: element 8 - 2k is the low half of word k, 7 - 2k the high half. */
static void _f_random_seed_put4(const int *put, long n) {
    if (n < 8) _f_random_seed_size_error("PUT");
    for (int k = 0; k < 4; k++)
        _f_rng[k] = ((unsigned long)(unsigned int)put[7 - 2 * k] | (unsigned long)(unsigned int)put[6 - 2 * k] << 32) ^ _f_rng_keys[k];
}

static void _f_random_seed_get4(int *get, long n) {
    if (n < 8) _f_random_seed_size_error("GET");
    for (int k = 0; k < 4; k++) {
        unsigned long v = _f_rng[k] ^ _f_rng_keys[k];
        get[7 - 2 * k] = (int)(unsigned int)(v & 0xffffffffUL);
        get[6 - 2 * k] = (int)(unsigned int)(v >> 32);
    }
}

/* put= and get= of integer(8): one element per word, in order. */
static void _f_random_seed_put8(const long *put, long n) {
    if (n < 4) _f_random_seed_size_error("PUT");
    for (int k = 0; k < 4; k++) _f_rng[k] = (unsigned long)put[k] ^ _f_rng_keys[k];
}

static void _f_random_seed_get8(long *get, long n) {
    if (n < 4) _f_random_seed_size_error("GET");
    for (int k = 0; k < 4; k++) get[k] = (long)(_f_rng[k] ^ _f_rng_keys[k]);
}

/* Formatted output (Fortran 2003 §10): the format is interpreted as items arrive. */
static const char *_ff_fmt;
static long _ff_len, _ff_pos, _ff_revert;
static int _ff_rep;           /* remaining repeats of the current data edit descriptor */
static char _ff_desc[3];      /* its letters: I F E ES D A L G */
static int _ff_w, _ff_d, _ff_e, _ff_hasw;
static int _ff_depth;
static long _ff_group_pos[16];
static int _ff_group_rep[16];
static FILE *_ff_unit;
static int _ff_pending_x;

static void _ff_flush_x(void) {
    for (; _ff_pending_x > 0; _ff_pending_x--) fputc(' ', _ff_unit);
}

static void _ff_begin(int unit, const char *fmt, long len) {
    _ff_unit = unit == 0 ? stderr : stdout;
    _ff_fmt = fmt;
    _ff_len = len;
    _ff_pos = 0;
    _ff_rep = 0;
    _ff_depth = 0;
    _ff_revert = -1;
    _ff_pending_x = 0;
    while (_ff_pos < _ff_len && _ff_fmt[_ff_pos] == ' ') _ff_pos++;
    if (_ff_pos < _ff_len && _ff_fmt[_ff_pos] == '(') _ff_pos++;
    _ff_revert = _ff_pos;
}

static int _ff_peek(void) {
    while (_ff_pos < _ff_len && (_ff_fmt[_ff_pos] == ' ' || _ff_fmt[_ff_pos] == ',')) _ff_pos++;
    return _ff_pos < _ff_len ? (unsigned char)_ff_fmt[_ff_pos] : -1;
}

static int _ff_number(int *out) {
    int n = 0, any = 0;
    while (_ff_pos < _ff_len && _ff_fmt[_ff_pos] >= '0' && _ff_fmt[_ff_pos] <= '9') {
        n = n * 10 + (_ff_fmt[_ff_pos] - '0');
        _ff_pos++;
        any = 1;
    }
    *out = n;
    return any;
}

static int _ff_upper(int c) { return c >= 'a' && c <= 'z' ? c - 32 : c; }

/* Advance to the next data edit descriptor, writing literals, X and / on the way. `final`: stop
 * before any data descriptor and at `:` (no items left). Returns 1 when a data descriptor is ready. */
static int _ff_advance(int final) {
    if (_ff_rep > 0) {
        if (final) return 0;
        return 1;
    }
    for (;;) {
        int c = _ff_peek();
        if (c < 0) return 0;
        if (c == ')') {
            _ff_pos++;
            if (_ff_depth > 0) {
                int d = _ff_depth - 1;
                if (--_ff_group_rep[d] > 0) {
                    _ff_pos = _ff_group_pos[d];
                } else {
                    _ff_depth--;
                }
                continue;
            }
            /* End of the format: with items left, revert to the start (new record). */
            if (final) return 0;
            _ff_pending_x = 0;
            fputc('\n', _ff_unit);
            _ff_pos = _ff_revert;
            _ff_depth = 0;
            continue;
        }
        if (c == '\'' || c == '"') {
            int q = c;
            _ff_pos++;
            _ff_flush_x();
            while (_ff_pos < _ff_len) {
                if (_ff_fmt[_ff_pos] == q) {
                    if (_ff_pos + 1 < _ff_len && _ff_fmt[_ff_pos + 1] == q) {
                        fputc(q, _ff_unit);
                        _ff_pos += 2;
                        continue;
                    }
                    _ff_pos++;
                    break;
                }
                fputc(_ff_fmt[_ff_pos++], _ff_unit);
            }
            continue;
        }
        if (c == '/') {
            _ff_pos++;
            _ff_pending_x = 0;
            fputc('\n', _ff_unit);
            continue;
        }
        if (c == ':') {
            _ff_pos++;
            if (final) return 0;
            continue;
        }
        int n = 1;
        long item_start = _ff_pos;
        int has_n = _ff_number(&n);
        c = _ff_upper(_ff_peek());
        if (c == '(') {
            _ff_pos++;
            if (_ff_depth < 16) {
                _ff_group_pos[_ff_depth] = _ff_pos;
                _ff_group_rep[_ff_depth] = has_n ? n : 1;
                _ff_depth++;
            }
            /* Format reversion restarts at the last top-level group, with its repeat count. */
            if (_ff_depth == 1) _ff_revert = item_start;
            continue;
        }
        if (c == 'X') {
            _ff_pos++;
            /* X moves the position: blanks appear only if something is written after them. */
            _ff_pending_x += has_n ? n : 1;
            continue;
        }
        if (c == 'P') { _ff_pos++; continue; }
        if (c == 'I' || c == 'F' || c == 'E' || c == 'D' || c == 'A' || c == 'L' || c == 'G') {
            if (final) return 0;
            _ff_pos++;
            _ff_desc[0] = (char)c;
            _ff_desc[1] = 0;
            if (c == 'E' && _ff_pos < _ff_len && _ff_upper(_ff_fmt[_ff_pos]) == 'S') {
                _ff_desc[1] = 'S';
                _ff_desc[2] = 0;
                _ff_pos++;
            }
            _ff_hasw = _ff_number(&_ff_w);
            _ff_d = -1;
            _ff_e = -1;
            if (_ff_pos < _ff_len && _ff_fmt[_ff_pos] == '.') {
                _ff_pos++;
                _ff_number(&_ff_d);
            }
            if (_ff_pos < _ff_len && _ff_upper(_ff_fmt[_ff_pos]) == 'E' && c != 'A') {
                _ff_pos++;
                _ff_number(&_ff_e);
            }
            _ff_rep = has_n ? n : 1;
            return 1;
        }
        /* Unknown descriptor: skip one character. */
        _ff_pos++;
    }
}

static void _ff_field(const char *s, int w) {
    int len = (int)strlen(s);
    _ff_flush_x();
    if (w <= 0) { fputs(s, _ff_unit); return; }
    if (len > w) {
        for (int i = 0; i < w; i++) fputc('*', _ff_unit);
        return;
    }
    for (int i = len; i < w; i++) fputc(' ', _ff_unit);
    fputs(s, _ff_unit);
}

static void _ff_bad(const char *what) {
    fflush(stdout);
    fprintf(stderr, "Fortran runtime error: Expected %s for item in formatted transfer, got %s\n", what, _ff_desc);
    exit(2);
}

/* The edit of one item by the current descriptor (`_ff_desc`, `_ff_w`, …): the format
 * interpreter's writers below, and the translator's compiled formats (`_ffc_*`), call them. */
static void _ff_int_edit(long v) {
    if (_ff_desc[0] != 'I' && _ff_desc[0] != 'G') _ff_bad("INTEGER");
    char buf[64];
    if (_ff_d > 0) {
        snprintf(buf, sizeof buf, "%s%0*lu", v < 0 ? "-" : "", _ff_d, v < 0 ? -(unsigned long)v : (unsigned long)v);
    } else if (_ff_d == 0 && v == 0) {
        buf[0] = 0;
    } else {
        snprintf(buf, sizeof buf, "%ld", v);
    }
    _ff_field(buf, _ff_hasw ? _ff_w : 0);
}

static void _ff_int(long v, int kind) {
    (void)kind;
    if (!_ff_advance(0)) return;
    _ff_rep--;
    _ff_int_edit(v);
}

static void _ff_log_edit(int v) {
    if (_ff_desc[0] != 'L' && _ff_desc[0] != 'G') _ff_bad("LOGICAL");
    _ff_field(v ? "T" : "F", _ff_hasw ? _ff_w : 1);
}

static void _ff_log(int v) {
    if (!_ff_advance(0)) return;
    _ff_rep--;
    _ff_log_edit(v);
}

static void _ff_str_edit(const char *s, long n) {
    if (_ff_desc[0] != 'A' && _ff_desc[0] != 'G') _ff_bad("CHARACTER");
    if (n < 0) n = 0;
    _ff_flush_x();
    if (!_ff_hasw || _ff_w == n) {
        fwrite(s, 1, (size_t)n, _ff_unit);
    } else if (_ff_w < n) {
        fwrite(s, 1, (size_t)_ff_w, _ff_unit);
    } else {
        for (long i = n; i < _ff_w; i++) fputc(' ', _ff_unit);
        fwrite(s, 1, (size_t)n, _ff_unit);
    }
}

static void _ff_str(const char *s, long n) {
    if (!_ff_advance(0)) return;
    _ff_rep--;
    _ff_str_edit(s, n);
}

/* Ew.d / Dw.d: 0.ddddE+xx; ESw.d: d.dddE+xx. */
static void _ff_exp_text(double v, int d, int e, int scientific, char letter, char *out) {
    char tmp[80];
    int digits = scientific ? d + 1 : d;
    if (digits < 1) digits = 1;
    snprintf(tmp, sizeof tmp, "%+.*e", digits - 1, v);
    char ds[64];
    int nd = 0;
    char *p = tmp + 1;
    while (*p && *p != 'e') {
        if (*p != '.') ds[nd++] = *p;
        p++;
    }
    ds[nd] = 0;
    int x = atoi(p + 1);
    if (v == 0.0) x = scientific ? 0 : -1;
    if (!scientific) x += 1;
    char *o = out;
    if (tmp[0] == '-') *o++ = '-';
    if (scientific) {
        *o++ = ds[0];
        *o++ = '.';
        for (int i = 1; i < nd; i++) *o++ = ds[i];
    } else {
        *o++ = '0';
        *o++ = '.';
        for (int i = 0; i < nd && i < d; i++) *o++ = ds[i];
    }
    int ax = x < 0 ? -x : x;
    int ed = e > 0 ? e : 2;
    if (e <= 0 && ax > 99) {
        *o++ = x < 0 ? '-' : '+';
        sprintf(o, "%03d", ax);
    } else {
        *o++ = letter;
        *o++ = x < 0 ? '-' : '+';
        sprintf(o, "%0*d", ed, ax);
    }
}

static void _ff_real_edit(double v, int kind) {
    char buf[128];
    int d = _ff_d < 0 ? 0 : _ff_d;
    switch (_ff_desc[0]) {
    case 'F': {
        snprintf(buf, sizeof buf, "%#.*f", d, v); /* F editing always writes the point */
        int len = (int)strlen(buf);
        if (_ff_hasw && _ff_w > 0 && len > _ff_w) {
            /* Drop the optional leading zero: 0.5 → .5 */
            if (buf[0] == '0' && buf[1] == '.') memmove(buf, buf + 1, strlen(buf));
            else if (buf[0] == '-' && buf[1] == '0' && buf[2] == '.') memmove(buf + 1, buf + 2, strlen(buf + 1));
        }
        _ff_field(buf, _ff_hasw ? _ff_w : 0);
        break;
    }
    case 'E':
    case 'D':
        _ff_exp_text(v, d, _ff_e, _ff_desc[1] == 'S', _ff_desc[0] == 'D' ? 'D' : 'E', buf);
        _ff_field(buf, _ff_hasw ? _ff_w : 0);
        break;
    case 'G': {
        int trail;
        int dd = _ff_d < 0 ? (kind == 8 ? 17 : 9) : _ff_d;
        _fr_real_text(v, dd, _ff_e > 0 ? _ff_e : 2, buf, &trail);
        if (trail == 0) {
            _ff_exp_text(v, dd, _ff_e, 0, 'E', buf);
            _ff_field(buf, _ff_hasw ? _ff_w : 0);
        } else {
            _ff_field(buf, _ff_hasw ? _ff_w - trail : 0);
            for (int i = 0; i < trail; i++) fputc(' ', _ff_unit);
        }
        break;
    }
    default:
        _ff_bad("REAL");
    }
}

static void _ff_real(double v, int kind) {
    if (!_ff_advance(0)) return;
    _ff_rep--;
    _ff_real_edit(v, kind);
}

static void _ff_complex(double re, double im, int kind) {
    _ff_real(re, kind);
    _ff_real(im, kind);
}

static void _ff_end(void) {
    _ff_advance(1);
    _ff_pending_x = 0;
    fputc('\n', _ff_unit);
}

/* `advance='no'` (§9.2.3.1): the record stays open for the next output statement. */
static void _ff_end_noadvance(void) {
    _ff_advance(1);
    _ff_pending_x = 0;
}

/* Compiled formats: a format the translator knows carries out its format control itself
 * (fortran/src/emit/format.rs) and calls these, which do what `_ff_advance` and the writers above
 * do at each step, without the format interpreter. */
static void _ffc_begin(int unit) {
    _ff_unit = unit == 0 ? stderr : stdout;
    _ff_pending_x = 0;
}

static void _ffc_desc(char letter, char second, int hasw, int w, int d, int e) {
    _ff_desc[0] = letter;
    _ff_desc[1] = second;
    _ff_desc[2] = 0;
    _ff_hasw = hasw;
    _ff_w = w;
    _ff_d = d;
    _ff_e = e;
}

static void _ffc_text(const char *s, long n) {
    _ff_flush_x();
    fwrite(s, 1, (size_t)n, _ff_unit);
}

static void _ffc_blanks(int n) { _ff_pending_x += n; }

static void _ffc_newline(void) {
    _ff_pending_x = 0;
    fputc('\n', _ff_unit);
}

static void _ffc_end_noadvance(void) { _ff_pending_x = 0; }

static void _ffc_int(long v, char letter, int hasw, int w, int d, int e) {
    _ffc_desc(letter, 0, hasw, w, d, e);
    _ff_int_edit(v);
}

static void _ffc_real(double v, int kind, char letter, char second, int hasw, int w, int d, int e) {
    _ffc_desc(letter, second, hasw, w, d, e);
    _ff_real_edit(v, kind);
}

static void _ffc_log(int v, char letter, int hasw, int w, int d, int e) {
    _ffc_desc(letter, 0, hasw, w, d, e);
    _ff_log_edit(v);
}

static void _ffc_str(const char *s, long n, char letter, int hasw, int w, int d, int e) {
    _ffc_desc(letter, 0, hasw, w, d, e);
    _ff_str_edit(s, n);
}

/* List-directed input from standard input (Fortran 2003 §10.9.1, libgfortran's behaviour): each
   `read` statement starts at the next record and, when done, skips the rest of the last record
   it read from; values are separated by blanks, a comma or ends of records; an empty value
   between commas (a null value) and the values after a slash leave their items unchanged.
   Without `iostat=`, the end of the input or a value that is not of the item's type ends the
   program with gfortran's message and exit status 2; with it, the statement stops and `iostat`
   is -1 (end of file) or 5010 (a bad value, libgfortran's LIBERROR_READ_VALUE). */
static int _fi_status;
static int _fi_has_iostat;
static int _fi_slash;
static int _fi_item;
static int _fi_last = '\n';
static int _fi_pushed = -2;
static long _fi_line;
static const char *_fi_file;
static int _fi_getc(void) {
    int c;
    if (_fi_pushed != -2) {
        c = _fi_pushed;
        _fi_pushed = -2;
    } else {
        c = getchar();
    }
    _fi_last = c;
    return c;
}
static void _fi_begin(int has_iostat, long line, const char *file) {
    _fi_status = 0;
    _fi_has_iostat = has_iostat;
    _fi_slash = 0;
    _fi_item = 0;
    _fi_line = line;
    _fi_file = file;
    _fi_last = 0;
}
static void _fi_fail(int status, const char *what) {
    if (_fi_has_iostat) {
        _fi_status = status;
        return;
    }
    fflush(stdout);
    fprintf(stderr, "At line %ld of file %s (unit = 5, file = 'stdin')\nFortran runtime error: %s\n", _fi_line, _fi_file, what);
    exit(2);
}
/* The next value's text into buf (at most cap - 1 characters); 0 for a null value, after a
   slash, or when the statement has failed. */
static int _fi_token(char *buf, int cap) {
    int c, n = 0;
    _fi_item++;
    if (_fi_status || _fi_slash) return 0;
    do { c = _fi_getc(); } while (c == ' ' || c == '\t' || c == '\n' || c == '\r');
    if (c == -1) { _fi_fail(-1, "End of file"); return 0; }
    if (c == '/') { _fi_slash = 1; return 0; }
    if (c == ',') return 0;
    if (c == '\'' || c == '"') {
        int q = c;
        for (;;) {
            c = _fi_getc();
            if (c == -1 || c == '\n') break;
            if (c == q) {
                c = _fi_getc();
                if (c != q) break;
            }
            if (n < cap - 1) buf[n++] = (char)c;
        }
    } else {
        while (c != -1 && c != ' ' && c != '\t' && c != ',' && c != '\n' && c != '\r' && c != '/') {
            if (n < cap - 1) buf[n++] = (char)c;
            c = _fi_getc();
        }
    }
    buf[n] = 0;
    /* The value separator: blanks, then a comma, a slash or the end of the record. */
    while (c == ' ' || c == '\t' || c == '\r') c = _fi_getc();
    if (c == '/') _fi_slash = 1;
    else if (c != ',' && c != '\n' && c != -1) { _fi_pushed = c; _fi_last = ' '; }
    return 1;
}
/* libgfortran's wording for each kind of bad value. */
static void _fi_bad(int kind) {
    char msg[96];
    if (kind == 0) snprintf(msg, sizeof msg, "Bad integer for item %d in list input", _fi_item);
    else if (kind == 1) snprintf(msg, sizeof msg, "Bad real number in item %d of list input", _fi_item);
    else snprintf(msg, sizeof msg, "Bad logical value while reading item %d", _fi_item);
    _fi_fail(5010, msg);
}
static int _fi_int(long *out) {
    char buf[128];
    char *end;
    long v;
    if (!_fi_token(buf, sizeof buf)) return 0;
    v = strtol(buf, &end, 10);
    if (end == buf || *end) { _fi_bad(0); return 0; }
    *out = v;
    return 1;
}
static int _fi_real(double *out) {
    char buf[128];
    char *end, *p;
    double v;
    if (!_fi_token(buf, sizeof buf)) return 0;
    for (p = buf; *p; p++) if (*p == 'd' || *p == 'D' || *p == 'q' || *p == 'Q') *p = 'e';
    v = strtod(buf, &end);
    if (end == buf || *end) { _fi_bad(1); return 0; }
    *out = v;
    return 1;
}
static int _fi_log(int *out) {
    char buf[128];
    const char *p;
    if (!_fi_token(buf, sizeof buf)) return 0;
    p = buf[0] == '.' ? buf + 1 : buf;
    if (*p == 't' || *p == 'T') { *out = 1; return 1; }
    if (*p == 'f' || *p == 'F') { *out = 0; return 1; }
    _fi_bad(2);
    return 0;
}
static int _fi_str(char *dst, long len) {
    char buf[4096];
    long n, i;
    if (!_fi_token(buf, sizeof buf)) return 0;
    n = (long)strlen(buf);
    for (i = 0; i < len; i++) dst[i] = i < n ? buf[i] : ' ';
    return 1;
}
static int _fi_end(void) {
    int c = _fi_last;
    if (!_fi_status) {
        while (c != '\n' && c != -1) c = _fi_getc();
    }
    _fi_last = '\n';
    return _fi_status;
}
