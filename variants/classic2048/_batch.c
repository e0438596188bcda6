/*
 * Many 2048 games stepped at once, compiled: the learning environments' batch.
 *
 * Each game is the human game of rules.py, bit for bit: its board holds exponents (0 for
 * an empty cell), a move resolves every line from the wall inwards (trace_line in
 * slide.py), and each new tile takes draw number `draws` of the deal of the game's code,
 * BLAKE2b(digest 16, person "twofold-deal") of "<CODE>:<draws>" (core/deal.py): the tile
 * lands on empty cell d % e in row-major order, a 4 when (d >> 32) % 10 == 0, else a 2.
 *
 * The caller owns every array (numpy's, through the buffer protocol): step() reads one
 * action a game and writes each game's board, reward, end and mask in place, for the
 * games [start, stop), with the GIL released, so threads can step parts of one batch at
 * once. A game that ended is started again on its next step (Gymnasium's next-step
 * autoreset), on the code of number(key, i, episode) (below; seed() sets the key), or on
 * the batch's fixed code (a daily board). Each game's moves are kept, one byte a move, so
 * its last ended episode can be replayed and proved: finished(i).
 *
 * Where the time goes: a step of a 4x4 board is a few table lookups and some bit
 * arithmetic on the board packed in 64 bits; its new tile's BLAKE2b is most of the rest,
 * four games' hashes at once (with AVX2 where the CPU has it, chosen when the module
 * loads). step() does each part for up to CHUNK games in turn, so the hashes run back to
 * back. Module functions (legal, slide, draws, kernel, number) expose the parts to tests.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* the batch's own threads (threads()), where pthreads are: decided before Games, whose
 * dealloc stops them */
#if defined(__unix__) || defined(__APPLE__)
#include <pthread.h>
#define THREADS 1
struct Pool;
static void stop_pool(struct Pool *pool);
#endif

#define MAX_SIDE 6
#define MAX_EXPONENT 31
#define CODE_LENGTH 8

static const char ALPHABET[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/* -- BLAKE2b (RFC 7693), one block: every message here is under 128 bytes ------------- */

static const uint64_t IV[8] = {
    0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL,
    0xa54ff53a5f1d36f1ULL, 0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL,
    0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL};

static const uint8_t SIGMA[12][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4},
    {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13},
    {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11},
    {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5},
    {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3}};

/* the chaining value after the parameter block: digest 16, no key, person "twofold-deal" */
static uint64_t H0[8];

static inline uint64_t rotr(uint64_t x, int n) { return (x >> n) | (x << (64 - n)); }

#define G(a, b, c, d, x, y)         \
    do {                            \
        a = a + b + (x);            \
        d = rotr(d ^ a, 32);        \
        c = c + d;                  \
        b = rotr(b ^ c, 24);        \
        a = a + b + (y);            \
        d = rotr(d ^ a, 16);        \
        c = c + d;                  \
        b = rotr(b ^ c, 63);        \
    } while (0)

static uint64_t load64(const uint8_t *p) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

static void init_blake(void) {
    uint8_t param[64];
    memset(param, 0, sizeof param);
    param[0] = 16; /* digest length */
    param[2] = 1;  /* fanout */
    param[3] = 1;  /* depth */
    memcpy(param + 48, "twofold-deal", 12);
    for (int i = 0; i < 8; i++) H0[i] = IV[i] ^ load64(param + 8 * i);
}

/* Draw `index` of the deal of `code`: the digest's first eight bytes, big-endian. */
static uint64_t draw(const char code[CODE_LENGTH], uint64_t index) {
    uint8_t block[128];
    memset(block, 0, sizeof block);
    memcpy(block, code, CODE_LENGTH);
    block[CODE_LENGTH] = ':';
    char digits[24];
    int count = 0;
    do {
        digits[count++] = (char)('0' + index % 10);
        index /= 10;
    } while (index);
    size_t length = CODE_LENGTH + 1;
    while (count) block[length++] = (uint8_t)digits[--count];
    uint64_t m[16], v[16];
    for (int i = 0; i < 16; i++) m[i] = load64(block + 8 * i);
    for (int i = 0; i < 8; i++) {
        v[i] = H0[i];
        v[i + 8] = IV[i];
    }
    v[12] ^= (uint64_t)length;
    v[14] = ~v[14]; /* the last block */
    for (int r = 0; r < 12; r++) {
        const uint8_t *s = SIGMA[r];
        G(v[0], v[4], v[8], v[12], m[s[0]], m[s[1]]);
        G(v[1], v[5], v[9], v[13], m[s[2]], m[s[3]]);
        G(v[2], v[6], v[10], v[14], m[s[4]], m[s[5]]);
        G(v[3], v[7], v[11], v[15], m[s[6]], m[s[7]]);
        G(v[0], v[5], v[10], v[15], m[s[8]], m[s[9]]);
        G(v[1], v[6], v[11], v[12], m[s[10]], m[s[11]]);
        G(v[2], v[7], v[8], v[13], m[s[12]], m[s[13]]);
        G(v[3], v[4], v[9], v[14], m[s[14]], m[s[15]]);
    }
    return __builtin_bswap64(H0[0] ^ v[0] ^ v[8]);
}


/* Four draws at once, one a lane, for messages of one block whose words past the second
 * are zero (an index below 10**7): the compression of draw() with the rounds unrolled, so
 * the compiler drops the fourteen zero words of every round. */
typedef uint64_t lanes __attribute__((vector_size(32)));

#define VROT(x, n) (((x) >> (n)) | ((x) << (64 - (n))))
#define VG(a, b, c, d, x, y)        \
    do {                            \
        a = a + b + (x);            \
        d = VROT(d ^ a, 32);        \
        c = c + d;                  \
        b = VROT(b ^ c, 24);        \
        a = a + b + (y);            \
        d = VROT(d ^ a, 16);        \
        c = c + d;                  \
        b = VROT(b ^ c, 63);        \
    } while (0)

/* message word s of a deal's block */
#define WORD(s) ((s) == 0 ? m0 : (s) == 1 ? m1 : zero)

/* the twelve rounds over v0..v15, with G and the message words named */
#define ROUNDS(G_)                                                                         \
    _Pragma("GCC unroll 12") for (int r = 0; r < 12; r++) {                                \
        const uint8_t *s = SIGMA[r];                                                       \
        G_(v0, v4, v8, v12, WORD(s[0]), WORD(s[1]));                                       \
        G_(v1, v5, v9, v13, WORD(s[2]), WORD(s[3]));                                       \
        G_(v2, v6, v10, v14, WORD(s[4]), WORD(s[5]));                                      \
        G_(v3, v7, v11, v15, WORD(s[6]), WORD(s[7]));                                      \
        G_(v0, v5, v10, v15, WORD(s[8]), WORD(s[9]));                                      \
        G_(v1, v6, v11, v12, WORD(s[10]), WORD(s[11]));                                    \
        G_(v2, v7, v8, v13, WORD(s[12]), WORD(s[13]));                                     \
        G_(v3, v4, v9, v14, WORD(s[14]), WORD(s[15]));                                     \
    }

static void draw4_plain(const uint64_t words0[4], const uint64_t words1[4],
                        const uint64_t lengths[4], uint64_t out[4]) {
    lanes m0, m1, zero = {0, 0, 0, 0};
    for (int k = 0; k < 4; k++) {
        m0[k] = words0[k];
        m1[k] = words1[k];
    }
#define SPLAT(x) ((lanes){(x), (x), (x), (x)})
    lanes v0 = SPLAT(H0[0]), v1 = SPLAT(H0[1]), v2 = SPLAT(H0[2]), v3 = SPLAT(H0[3]);
    lanes v4 = SPLAT(H0[4]), v5 = SPLAT(H0[5]), v6 = SPLAT(H0[6]), v7 = SPLAT(H0[7]);
    lanes v8 = SPLAT(IV[0]), v9 = SPLAT(IV[1]), v10 = SPLAT(IV[2]), v11 = SPLAT(IV[3]);
    lanes v12 = SPLAT(IV[4]) ^ (lanes){lengths[0], lengths[1], lengths[2], lengths[3]};
    lanes v13 = SPLAT(IV[5]), v14 = ~SPLAT(IV[6]), v15 = SPLAT(IV[7]);
    ROUNDS(VG)
    lanes h = SPLAT(H0[0]) ^ v0 ^ v8;
#undef SPLAT
    for (int k = 0; k < 4; k++) out[k] = __builtin_bswap64(h[k]);
}

static void (*draw4)(const uint64_t *, const uint64_t *, const uint64_t *, uint64_t *) =
    draw4_plain;

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define AVX2_KERNEL 1

/* The same with AVX2 intrinsics: rotations by 32, 24 and 16 as one shuffle each. */
#define A_ADD _mm256_add_epi64
#define A_XOR _mm256_xor_si256
#define AG(a, b, c, d, x, y)                                         \
    do {                                                             \
        a = A_ADD(A_ADD(a, b), x);                                   \
        d = _mm256_shuffle_epi32(A_XOR(d, a), _MM_SHUFFLE(2, 3, 0, 1)); \
        c = A_ADD(c, d);                                             \
        b = _mm256_shuffle_epi8(A_XOR(b, c), rot24);                 \
        a = A_ADD(A_ADD(a, b), y);                                   \
        d = _mm256_shuffle_epi8(A_XOR(d, a), rot16);                 \
        c = A_ADD(c, d);                                             \
        b = A_XOR(b, c);                                             \
        b = _mm256_or_si256(_mm256_srli_epi64(b, 63), A_ADD(b, b));  \
    } while (0)

__attribute__((target("avx2"))) static void draw4_avx2(const uint64_t words0[4],
                                                       const uint64_t words1[4],
                                                       const uint64_t lengths[4],
                                                       uint64_t out[4]) {
    const __m256i rot24 = _mm256_setr_epi8(3, 4, 5, 6, 7, 0, 1, 2, 11, 12, 13, 14, 15, 8, 9,
                                           10, 3, 4, 5, 6, 7, 0, 1, 2, 11, 12, 13, 14, 15, 8,
                                           9, 10);
    const __m256i rot16 = _mm256_setr_epi8(2, 3, 4, 5, 6, 7, 0, 1, 10, 11, 12, 13, 14, 15, 8,
                                           9, 2, 3, 4, 5, 6, 7, 0, 1, 10, 11, 12, 13, 14, 15,
                                           8, 9);
    const __m256i zero = _mm256_setzero_si256();
    __m256i m0 = _mm256_loadu_si256((const __m256i *)words0);
    __m256i m1 = _mm256_loadu_si256((const __m256i *)words1);
#define SPLAT(x) _mm256_set1_epi64x((long long)(x))
    __m256i v0 = SPLAT(H0[0]), v1 = SPLAT(H0[1]), v2 = SPLAT(H0[2]), v3 = SPLAT(H0[3]);
    __m256i v4 = SPLAT(H0[4]), v5 = SPLAT(H0[5]), v6 = SPLAT(H0[6]), v7 = SPLAT(H0[7]);
    __m256i v8 = SPLAT(IV[0]), v9 = SPLAT(IV[1]), v10 = SPLAT(IV[2]), v11 = SPLAT(IV[3]);
    __m256i v12 = A_XOR(SPLAT(IV[4]), _mm256_loadu_si256((const __m256i *)lengths));
    __m256i v13 = SPLAT(IV[5]), v14 = SPLAT(~IV[6]), v15 = SPLAT(IV[7]);
    ROUNDS(AG)
    __m256i h = A_XOR(SPLAT(H0[0]), A_XOR(v0, v8));
#undef SPLAT
    const __m256i swap = _mm256_setr_epi8(7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8,
                                          7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8);
    _mm256_storeu_si256((__m256i *)out, _mm256_shuffle_epi8(h, swap));
}
#endif


/* The second message word of "<CODE>:<index>" and the message's length (index < 10**7). */
static uint64_t second_word(uint64_t index, uint64_t *length) {
    char digits[8];
    int count = 0;
    do {
        digits[count++] = (char)('0' + index % 10);
        index /= 10;
    } while (index);
    uint8_t bytes[8] = {':', 0, 0, 0, 0, 0, 0, 0};
    *length = CODE_LENGTH + 1 + (uint64_t)count;
    for (int k = 1; count; k++) bytes[k] = (uint8_t)digits[--count];
    return load64(bytes);
}

#define SHORT_INDEX 10000000ULL

/* -- codes ----------------------------------------------------------------------------- */

static unsigned gf32_times_x(unsigned value) {
    value <<= 1;
    return value & 32 ? value ^ 37 : value;
}

/* The code number of game i's episode e of a batch seeded with key: splitmix64's mix of
 * them, its low 35 bits (a number below 32**7; batch.py's code_number does the same). Each
 * game's own, so threads stepping parts of a batch start the same games in any order. */
static uint64_t number_of(uint64_t key, uint64_t i, uint64_t e) {
    uint64_t z = key + (i << 32 | (e & 0xFFFFFFFFULL)) * 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return (z ^ (z >> 31)) & ((1ULL << 35) - 1);
}

/* The code of `number` (below 32**7), as core/codes.py's code_from_number writes it. */
static void code_of(uint64_t number, char code[CODE_LENGTH]) {
    for (int i = CODE_LENGTH - 2; i >= 0; i--) {
        code[i] = ALPHABET[number % 32];
        number /= 32;
    }
    unsigned total = 0;
    for (int i = 0; i < CODE_LENGTH - 1; i++) {
        total = gf32_times_x(total) ^ (unsigned)(strchr(ALPHABET, code[i]) - ALPHABET);
    }
    code[CODE_LENGTH - 1] = ALPHABET[gf32_times_x(total)];
}

/* -- the games ------------------------------------------------------------------------- */

typedef struct {
    uint8_t *moves;
    Py_ssize_t length, room;
} Log;

typedef struct {
    PyObject_HEAD
    int side, cells;
    Py_ssize_t count;
    int log2_reward;
    uint8_t *boards;   /* count x cells exponents (of a 4x4 game only where wide) */
    uint64_t *packed;  /* a 4x4 game's board packed (where not wide) */
    uint8_t *wide;     /* 1: a 4x4 game with a tile beyond four bits, in boards */
    uint64_t *worth;   /* a packed board's BYTE_WORTH summed */
    uint64_t *draws;   /* the deal's draws each game has used */
    uint64_t *message; /* the second word of its next draw's message, ":<draws>" */
    uint8_t *length;   /* and that message's length */
    uint64_t *scores;
    uint64_t *episodes; /* the episodes each game has started since the batch was seeded */
    uint64_t key;       /* the seed its games' codes come from */
    uint8_t *over;     /* 1: ended, started again on its next step */
    char *codes;       /* count x CODE_LENGTH */
    Log *logs;         /* the moves of each game in play */
    Log *ended;        /* the moves of each game's last ended episode */
    char *ended_codes;
    uint64_t *ended_scores;
    int fixed;         /* 1: every game plays fixed_code (a daily board) */
    char fixed_code[CODE_LENGTH];
    struct Pool *pool; /* the threads that step parts of the batch with the caller's */
} Games;

static int lengthen(Log *log) {
    if (log->length < log->room) return 0;
    Py_ssize_t room = log->room ? log->room * 2 : 256;
    uint8_t *moves = realloc(log->moves, (size_t)room);
    if (!moves) return -1;
    log->moves = moves;
    log->room = room;
    return 0;
}

/* LINES[side][direction][line]: the cells of each line of a move, from the wall inwards */
static uint8_t LINES[MAX_SIDE + 1][4][MAX_SIDE][MAX_SIDE];

static void init_lines(void) {
    for (int side = 2; side <= MAX_SIDE; side++)
        for (int line = 0; line < side; line++)
            for (int k = 0; k < side; k++) {
                LINES[side][0][line][k] = (uint8_t)(line * side + k);              /* left */
                LINES[side][1][line][k] = (uint8_t)(line * side + side - 1 - k);   /* right */
                LINES[side][2][line][k] = (uint8_t)(k * side + line);              /* up */
                LINES[side][3][line][k] = (uint8_t)((side - 1 - k) * side + line); /* down */
            }
}

/* Whether a move in `direction` changes the board: a tile with an empty cell before it
 * (towards the wall), or two neighbouring tiles alike that may merge. */
static inline int moves(const uint8_t *board, int side, int direction) {
    for (int line = 0; line < side; line++) {
        const uint8_t *cells = LINES[side][direction][line];
        int gap = 0, last = 0;
        for (int k = 0; k < side; k++) {
            int e = board[cells[k]];
            if (!e) {
                gap = 1;
                continue;
            }
            if (gap || (e == last && e < MAX_EXPONENT)) return 1;
            last = e;
        }
    }
    return 0;
}

static int legal_bits(const uint8_t *board, int side) {
    int found = 0;
    for (int d = 0; d < 4; d++) found |= moves(board, side, d) << d;
    return found;
}
/* -- 4x4 boards, packed ---------------------------------------------------------------- */

/* The common case: a 4x4 board whose tiles are all below 2**16, packed in 64 bits, four
 * bits a cell, cell c (row-major) at bits 4c..4c+3, so row r is bits 16r..16r+15 with
 * column c at 4c. A board with a larger tile, or a move that would make one, takes the
 * general path above. */
#define ONES 0x1111111111111111ULL
#define SEVENS 0x7777777777777777ULL

/* ROW_MOVED[towards][row]: the row after a move towards column 0 (towards 0) or 3 (1) */
static uint16_t ROW_MOVED[2][65536];
/* BYTE_WORTH[b]: e * 2**e summed over the two cells of byte b of a packed board, whose sum
 * over the board rises by a move's score gain (two tiles of 2**e made one of 2**(e + 1):
 * 2 * e * 2**e became (e + 1) * 2**(e + 1)); BYTE_MADE[b] the same with f(e), f(1) = 0,
 * f(e + 1) = 2 f(e) + e + 1, whose sum rises by log2 of the tiles made. Small tables: a
 * step reads them from the nearest cache, where a table of rows would be out in L2. */
static uint32_t BYTE_WORTH[256], BYTE_MADE[256];
/* RECIPROCAL[c]: 2**64 / c rounded up, for x % c by multiplications (Lemire's fastmod) */
static uint64_t RECIPROCAL[17];
static void init_rows(void) {
    for (unsigned row = 0; row < 65536; row++) {
        for (int towards = 0; towards < 2; towards++) {
            uint8_t line[4], result[4] = {0, 0, 0, 0};
            for (int k = 0; k < 4; k++) line[k] = (row >> (4 * (towards ? 3 - k : k))) & 15;
            int length = 0, last_made = 0;
            for (int k = 0; k < 4; k++) {
                uint8_t e = line[k];
                if (!e) continue;
                if (length && result[length - 1] == e && !last_made) {
                    result[length - 1] = (uint8_t)(e + 1);
                    last_made = 1;
                } else {
                    result[length++] = e;
                    last_made = 0;
                }
            }
            unsigned moved = 0;
            for (int k = 0; k < 4; k++)
                moved |= (unsigned)(result[k] & 15) << (4 * (towards ? 3 - k : k));
            ROW_MOVED[towards][row] = (uint16_t)moved;
        }
    }
    uint32_t worth[16], made[16];
    for (unsigned e = 0; e < 16; e++) {
        worth[e] = e << e;
        made[e] = e < 2 ? 0 : 2 * made[e - 1] + e;
    }
    for (unsigned b = 0; b < 256; b++) {
        BYTE_WORTH[b] = worth[b & 15] + worth[b >> 4];
        BYTE_MADE[b] = made[b & 15] + made[b >> 4];
    }
    for (unsigned c = 1; c <= 16; c++) RECIPROCAL[c] = UINT64_MAX / c + 1;
}

static inline uint64_t transpose4(uint64_t x) {
    uint64_t a1 = x & 0xF0F00F0FF0F00F0FULL;
    uint64_t a2 = x & 0x0000F0F00000F0F0ULL;
    uint64_t a3 = x & 0x0F0F00000F0F0000ULL;
    uint64_t a = a1 | (a2 << 12) | (a3 >> 12);
    uint64_t b1 = a & 0xFF00FF0000FF00FFULL;
    uint64_t b2 = a & 0x00FF00FF00000000ULL;
    uint64_t b3 = a & 0x00000000FF00FF00ULL;
    return b1 | (b2 >> 24) | (b3 << 24);
}

/* Eight bytes of at most 15 each, as eight nibbles (byte k to bits 4k..4k+3). */
static inline uint64_t nibbles(uint64_t bytes) {
    uint64_t t = (bytes | bytes >> 4) & 0x00FF00FF00FF00FFULL;
    t = (t | t >> 8) & 0x0000FFFF0000FFFFULL;
    return (t | t >> 16) & 0xFFFFFFFFULL;
}

/* Eight nibbles back as eight bytes. */
static inline uint64_t bytes_of(uint64_t nibbles8) {
    uint64_t t = (nibbles8 | nibbles8 << 16) & 0x0000FFFF0000FFFFULL;
    t = (t | t << 8) & 0x00FF00FF00FF00FFULL;
    return (t | t << 4) & 0x0F0F0F0F0F0F0F0FULL;
}

/* a board's 16 bytes as two words, cell c at byte c of its word (any byte order) */
static inline uint64_t word_at(const uint8_t *bytes) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t word;
    memcpy(&word, bytes, 8);
    return word;
#else
    return load64(bytes);
#endif
}

static inline void put_word(uint8_t *bytes, uint64_t word) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(bytes, &word, 8);
#else
    for (int k = 0; k < 8; k++) bytes[k] = (uint8_t)(word >> (8 * k));
#endif
}

/* The board packed; *fits 0 where a tile is beyond four bits (the packing is then wrong). */
static inline uint64_t pack4(const uint8_t *board, int *fits) {
    uint64_t low = word_at(board), high = word_at(board + 8);
    *fits = ((low | high) & 0xF0F0F0F0F0F0F0F0ULL) == 0;
    return nibbles(low) | nibbles(high) << 32;
}

static inline void unpack4(uint64_t x, uint8_t *board) {
    put_word(board, bytes_of(x & 0xFFFFFFFFULL));
    put_word(board + 8, bytes_of(x >> 32));
}

/* bit 4c set where cell c holds a tile */
static inline uint64_t tiles4(uint64_t x) {
    x |= x >> 2;
    x |= x >> 1;
    return x & ONES;
}

/* The legal moves of a packed board, as bits (left, right, up, down), by bit arithmetic
 * on all its lines at once: a move changes a line where a tile has an empty cell just
 * before it (towards the wall), or two neighbouring tiles are alike (a merge). */
static inline int legal4(uint64_t x) {
    const uint64_t across = 0x0111011101110111ULL; /* cells with a right neighbour */
    const uint64_t down = 0x0000111111111111ULL;   /* cells with a neighbour below */
    uint64_t full = tiles4(x), empty = full ^ ONES;
    uint64_t right_of = full >> 4, below = full >> 16; /* at c: cell c+1's, cell c+4's */
    uint64_t alike_across = (tiles4(x ^ x >> 4) ^ ONES) & full;
    uint64_t alike_down = (tiles4(x ^ x >> 16) ^ ONES) & full;
    return (((empty & right_of) | alike_across) & across ? 1 : 0) |
           ((((full & (right_of ^ ONES)) | alike_across) & across) ? 2 : 0) |
           (((empty & below) | alike_down) & down ? 4 : 0) |
           ((((full & (below ^ ONES)) | alike_down) & down) ? 8 : 0);
}

/* The sum of a table of bytes over the eight bytes of a packed board. */
static inline uint32_t summed(const uint32_t table[256], uint64_t x) {
    uint32_t sum = 0;
    for (int b = 0; b < 8; b++) sum += table[(x >> (8 * b)) & 255];
    return sum;
}

/* Whether a packed board may move by the row tables: at most one tile of 2**15, so no
 * move makes a tile beyond four bits. */
static inline int small4(uint64_t x) {
    uint64_t top = x & x >> 1 & x >> 2 & x >> 3 & ONES;
    return (top & (top - 1)) == 0;
}

/* A move of a packed board (small4): the board after it. */
static inline uint64_t move4(uint64_t x, int direction) {
    const uint16_t *moved = ROW_MOVED[direction & 1];
    uint64_t from = direction & 2 ? transpose4(x) : x, to = 0;
    for (int r = 0; r < 4; r++) to |= (uint64_t)moved[(from >> (16 * r)) & 0xFFFF] << (16 * r);
    return direction & 2 ? transpose4(to) : to;
}

/* d % count for count from 1 to 16: by way of lcm(1..16) = 720720, by multiplications */
static inline unsigned below16(uint64_t d, unsigned count) {
    uint32_t x = (uint32_t)(d % 720720u);
#ifdef __SIZEOF_INT128__
    return (unsigned)(((unsigned __int128)(RECIPROCAL[count] * x) * count) >> 64);
#else
    return x % count;
#endif
}

/* Draw d's tile on a packed board with a tile on it: on empty cell d % (empty cells) in
 * row-major order, a 4 when (d >> 32) % 10 == 0, else a 2. */
static inline uint64_t place4(uint64_t x, uint64_t d) {
    uint64_t empty = tiles4(x) ^ ONES;
    uint64_t upto = empty * ONES; /* nibble c: the empty cells up to c (at most 15) */
    uint64_t k = below16(d, (unsigned)(upto >> 60)) + 1;
    /* the first cell where upto reaches k: its nibble of upto ^ k * ONES is zero */
    uint64_t y = upto ^ k * ONES;
    uint64_t zero = ~(((y & SEVENS) + SEVENS) | y | SEVENS);
    int shift = __builtin_ctzll(zero) - 3;
    return x | (uint64_t)((d >> 32) % 10 == 0 ? 2 : 1) << shift;
}

/* The legal moves of a board, as bits, by the packed board where it fits. */
static inline int legal_any(const uint8_t *board, int side) {
    if (side == 4) {
        int fits;
        uint64_t x = pack4(board, &fits);
        if (fits) return legal4(x);
    }
    return legal_bits(board, side);
}

/* Slide the board in `direction` (trace_line); the score gained and log2 of the tiles made. */
static uint64_t slide(uint8_t *board, int side, int direction, uint64_t *made) {
    uint64_t gain = 0;
    for (int line = 0; line < side; line++) {
        const uint8_t *cells = LINES[side][direction][line];
        uint8_t result[MAX_SIDE] = {0};
        int length = 0, last_made = 0;
        for (int k = 0; k < side; k++) {
            uint8_t e = board[cells[k]];
            if (!e) continue;
            if (length && result[length - 1] == e && !last_made && e < MAX_EXPONENT) {
                result[length - 1] = (uint8_t)(e + 1);
                gain += 1ULL << (e + 1);
                *made += (uint64_t)(e + 1);
                last_made = 1;
            } else {
                result[length++] = e;
                last_made = 0;
            }
        }
        for (int k = 0; k < side; k++) board[cells[k]] = result[k];
    }
    return gain;
}

/* -- one game -------------------------------------------------------------------------- */

/* whether game i's board is the packed one */
static inline int is_packed(const Games *g, Py_ssize_t i) { return g->side == 4 && !g->wide[i]; }

/* One more draw of game i used: its next message ":<draws>" from the last, digit by digit
 * (below 10**7 only, where the message is of two words). */
static inline void count_draw(Games *g, Py_ssize_t i) {
    uint64_t index = ++g->draws[i];
    if (index >= SHORT_INDEX) return;
    uint64_t word = g->message[i];
    for (int k = g->length[i] - CODE_LENGTH - 1; k >= 1; k--) {
        if (((word >> (8 * k)) & 255) != '9') {
            g->message[i] = word + (1ULL << (8 * k));
            return;
        }
        word -= (uint64_t)('9' - '0') << (8 * k);
    }
    uint64_t length; /* 9...9 + 1: a digit more */
    g->message[i] = second_word(index, &length);
    g->length[i] = (uint8_t)length;
}

/* Draw d's tile on a board of `cells` cells with an empty one. */
static void place(uint8_t *board, int cells, uint64_t d) {
    int empty[MAX_SIDE * MAX_SIDE], count = 0;
    for (int c = 0; c < cells; c++)
        if (!board[c]) empty[count++] = c;
    board[empty[d % (uint64_t)count]] = ((d >> 32) % 10 == 0) ? 2 : 1;
}

/* The deal's next tile on game i's board of bytes, its draw hashed here. */
static void spawn(Games *g, Py_ssize_t i) {
    place(g->boards + i * g->cells, g->cells, draw(g->codes + i * CODE_LENGTH, g->draws[i]));
    count_draw(g, i);
}

/* Start game i on `code`: two tiles from draws 0 and 1. */
static void start_on(Games *g, Py_ssize_t i, const char code[CODE_LENGTH]) {
    uint8_t *board = g->boards + i * g->cells;
    memcpy(g->codes + i * CODE_LENGTH, code, CODE_LENGTH);
    memset(board, 0, (size_t)g->cells);
    uint64_t length;
    g->draws[i] = 0;
    g->message[i] = second_word(0, &length);
    g->length[i] = (uint8_t)length;
    g->scores[i] = 0;
    g->over[i] = 0;
    g->logs[i].length = 0;
    spawn(g, i);
    spawn(g, i);
    if (g->side == 4) {
        int fits;
        g->packed[i] = pack4(board, &fits);
        g->wide[i] = 0;
        g->worth[i] = summed(BYTE_WORTH, g->packed[i]);
    }
}

/* Start game i on its next code (the fixed code of a daily board, if any). */
static void start(Games *g, Py_ssize_t i) {
    char code[CODE_LENGTH];
    if (g->fixed) {
        memcpy(code, g->fixed_code, CODE_LENGTH);
    } else {
        code_of(number_of(g->key, (uint64_t)i, g->episodes[i]++), code);
    }
    start_on(g, i, code);
}

/* Game i's board of bytes from its packed one, from now on (a tile beyond four bits). */
static void widen(Games *g, Py_ssize_t i) {
    unpack4(g->packed[i], g->boards + i * 16);
    g->wide[i] = 1;
}

/* Game i's legal moves, as bits (none where it ended). */
static inline int legal_of(const Games *g, Py_ssize_t i) {
    if (g->over[i]) return 0;
    if (is_packed(g, i)) return legal4(g->packed[i]);
    return legal_any(g->boards + i * g->cells, g->side);
}

/* Game i's board, mask and score into the caller's arrays. */
static inline void write_out(const Games *g, Py_ssize_t i, uint8_t *obs, int8_t *masks,
                             int64_t *scores, int bits) {
    if (is_packed(g, i)) {
        unpack4(g->packed[i], obs + i * 16);
    } else {
        memcpy(obs + i * g->cells, g->boards + i * g->cells, (size_t)g->cells);
    }
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* bit d of bits to byte d: the shifts by 7d land bit d on bit 8d, and only it */
    uint32_t spread = ((uint32_t)bits * 0x00204081u) & 0x01010101u;
    memcpy(masks + i * 4, &spread, 4);
#else
    for (int d = 0; d < 4; d++) masks[i * 4 + d] = (int8_t)(bits >> d & 1);
#endif
    scores[i] = (int64_t)g->scores[i];
}

/* -- the batch ------------------------------------------------------------------------- */

static void Games_dealloc(Games *g) {
#ifdef THREADS
    if (g->pool) stop_pool(g->pool);
#endif
    if (g->logs) {
        for (Py_ssize_t i = 0; i < g->count; i++) {
            free(g->logs[i].moves);
            free(g->ended[i].moves);
        }
    }
    free(g->boards);
    free(g->packed);
    free(g->wide);
    free(g->worth);
    free(g->draws);
    free(g->message);
    free(g->length);
    free(g->scores);
    free(g->episodes);
    free(g->over);
    free(g->codes);
    free(g->logs);
    free(g->ended);
    free(g->ended_codes);
    free(g->ended_scores);
    Py_TYPE(g)->tp_free((PyObject *)g);
}

static int Games_init(Games *g, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"side", "count", "log2", NULL};
    int side, log2 = 0;
    Py_ssize_t count;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "in|p", names, &side, &count, &log2))
        return -1;
    if (side < 2 || side > MAX_SIDE || count < 1) {
        PyErr_SetString(PyExc_ValueError, "a batch is 1 or more games of 2x2 to 6x6");
        return -1;
    }
    if (g->boards) {
        PyErr_SetString(PyExc_RuntimeError, "a batch is made once");
        return -1;
    }
    g->side = side;
    g->cells = side * side;
    g->count = count;
    g->log2_reward = log2;
    size_t n = (size_t)count;
    g->boards = calloc(n * (size_t)g->cells, 1);
    g->packed = calloc(n, sizeof(uint64_t));
    g->wide = calloc(n, 1);
    g->worth = calloc(n, sizeof(uint64_t));
    g->draws = calloc(n, sizeof(uint64_t));
    g->message = calloc(n, sizeof(uint64_t));
    g->length = calloc(n, 1);
    g->scores = calloc(n, sizeof(uint64_t));
    g->episodes = calloc(n, sizeof(uint64_t));
    g->over = calloc(n, 1);
    g->codes = calloc(n, CODE_LENGTH);
    g->logs = calloc(n, sizeof(Log));
    g->ended = calloc(n, sizeof(Log));
    g->ended_codes = calloc(n, CODE_LENGTH);
    g->ended_scores = calloc(n, sizeof(uint64_t));
    if (!g->boards || !g->packed || !g->wide || !g->worth || !g->draws || !g->message ||
        !g->length || !g->scores || !g->episodes || !g->over || !g->codes || !g->logs || !g->ended ||
        !g->ended_codes || !g->ended_scores) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

typedef struct {
    Py_buffer view;
    int held;
} Held;

static int take(PyObject *object, Held *held, Py_ssize_t itemsize, Py_ssize_t items,
                int writable, const char *name) {
    int flags = PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(object, &held->view, flags) < 0) return -1;
    held->held = 1;
    if (held->view.len != itemsize * items) {
        PyErr_Format(PyExc_ValueError, "%s: %zd bytes, not %zd", name, held->view.len,
                     itemsize * items);
        return -1;
    }
    return 0;
}

static void release(Held *helds, int count) {
    for (int i = 0; i < count; i++)
        if (helds[i].held) PyBuffer_Release(&helds[i].view);
}

static int range_of(Games *g, Py_ssize_t *first, Py_ssize_t *last) {
    if (*last < 0 || *last > g->count) *last = g->count;
    if (*first < 0 || *first > *last) {
        PyErr_SetString(PyExc_ValueError, "start and stop must name games of the batch");
        return -1;
    }
    return 0;
}

/* reset(obs, masks, scores, start=0, stop=-1): start every game again. */
static PyObject *Games_reset(Games *g, PyObject *args) {
    PyObject *objects[3];
    Py_ssize_t first = 0, last = -1;
    if (!PyArg_ParseTuple(args, "OOO|nn", &objects[0], &objects[1], &objects[2], &first, &last))
        return NULL;
    if (range_of(g, &first, &last) < 0) return NULL;
    Held held[3];
    memset(held, 0, sizeof held);
    Py_ssize_t n = g->count;
    if (take(objects[0], &held[0], 1, n * g->cells, 1, "obs") < 0 ||
        take(objects[1], &held[1], 1, n * 4, 1, "masks") < 0 ||
        take(objects[2], &held[2], 8, n, 1, "scores") < 0) {
        release(held, 3);
        return NULL;
    }
    uint8_t *obs = held[0].view.buf;
    int8_t *masks = held[1].view.buf;
    int64_t *scores = held[2].view.buf;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = first; i < last; i++) {
        start(g, i);
        write_out(g, i, obs, masks, scores, legal_of(g, i));
    }
    Py_END_ALLOW_THREADS
    release(held, 3);
    Py_RETURN_NONE;
}

/* seed(key): the games started from now on are those of key, each from its first episode. */
static PyObject *Games_seed(Games *g, PyObject *arg) {
    unsigned long long key = PyLong_AsUnsignedLongLongMask(arg);
    if (PyErr_Occurred()) return NULL;
    g->key = key;
    memset(g->episodes, 0, (size_t)g->count * sizeof(uint64_t));
    Py_RETURN_NONE;
}

/* how a game of a chunk moved on this step */
enum { STILL, PACKED, GENERAL };
/* games a step takes at a time: their moves, then their hashes back to back, then their
 * tiles, masks and outputs */
#define CHUNK 64

/* One step's arrays (the caller's, flat) and a part of the batch it steps. */
typedef struct {
    const int64_t *actions;
    uint8_t *obs, *terminated;
    double *rewards;
    int8_t *masks;
    int64_t *scores;
} Arrays;

typedef struct {
    Py_ssize_t first, last;
    Py_ssize_t bad; /* the first game whose action was not a move, or -1 */
    int no_memory;
} Part;

/* One move of every game of a part (without the GIL). */
static void step_part(Games *g, const Arrays *arrays, Part *part) {
    const int64_t *actions = arrays->actions;
    uint8_t *obs = arrays->obs, *terminated = arrays->terminated;
    double *rewards = arrays->rewards;
    int8_t *masks = arrays->masks;
    int64_t *scores = arrays->scores;
    const Py_ssize_t first = part->first, last = part->last;
    const int side = g->side, cells = g->cells;
    for (Py_ssize_t base = first; base < last; base += CHUNK) {
        int top = (int)(last - base < CHUNK ? last - base : CHUNK), lanes = 0;
        uint8_t how[CHUNK];
        int lane[CHUNK];
        uint64_t after[CHUNK];
        uint64_t words0[CHUNK + 3], words1[CHUNK + 3], lengths[CHUNK + 3], drawn[CHUNK + 3];
        for (int k = 0; k < top; k++) {
            Py_ssize_t i = base + k;
            how[k] = STILL;
            rewards[i] = 0.0;
            terminated[i] = 0;
            if (g->over[i]) { /* ended on the step before: started again, its action unread */
                Log kept = g->ended[i];
                g->ended[i] = g->logs[i];
                g->logs[i] = kept;
                memcpy(g->ended_codes + i * CODE_LENGTH, g->codes + i * CODE_LENGTH,
                       CODE_LENGTH);
                g->ended_scores[i] = g->scores[i];
                start(g, i);
                continue;
            }
            int64_t action = actions[i];
            if (action < 0 || action > 3) {
                if (part->bad < 0) part->bad = i;
                continue;
            }
            uint64_t gain = 0, made = 0;
            if (is_packed(g, i)) {
                uint64_t x = g->packed[i];
                if (small4(x)) {
                    uint64_t y = move4(x, (int)action);
                    if (y == x) continue; /* no move: reward 0 */
                    how[k] = PACKED;
                    after[k] = y;
                    uint64_t worth = summed(BYTE_WORTH, y);
                    gain = worth - g->worth[i];
                    g->worth[i] = worth;
                    if (g->log2_reward) made = summed(BYTE_MADE, y) - summed(BYTE_MADE, x);
                } else {
                    widen(g, i); /* two tiles of 2**15: a merge may make one of 2**16 */
                }
            }
            if (how[k] == STILL) {
                uint8_t *board = g->boards + i * cells;
                if (!moves(board, side, (int)action)) continue;
                gain = slide(board, side, (int)action, &made);
                how[k] = GENERAL;
            }
            g->scores[i] += gain;
            rewards[i] = g->log2_reward ? (double)made : (double)gain;
            Log *log = &g->logs[i];
            if (lengthen(log) < 0) {
                part->no_memory = 1;
            } else {
                log->moves[log->length++] = (uint8_t)action;
            }
            lane[k] = -1;
            if (g->draws[i] < SHORT_INDEX) {
                lane[k] = lanes;
                words0[lanes] = word_at((const uint8_t *)g->codes + i * CODE_LENGTH);
                words1[lanes] = g->message[i];
                lengths[lanes] = g->length[i];
                lanes++;
            }
        }
        for (int l = lanes; l % 4; l++) {
            words0[l] = words1[l] = 0;
            lengths[l] = CODE_LENGTH;
        }
        for (int l = 0; l < lanes; l += 4) draw4(words0 + l, words1 + l, lengths + l, drawn + l);
        for (int k = 0; k < top; k++) {
            Py_ssize_t i = base + k;
            if (how[k] == STILL) {
                write_out(g, i, obs, masks, scores, legal_of(g, i));
                continue;
            }
            uint64_t d = lane[k] >= 0 ? drawn[lane[k]]
                                      : draw(g->codes + i * CODE_LENGTH, g->draws[i]);
            count_draw(g, i);
            int bits;
            if (how[k] == PACKED) {
                uint64_t y = place4(after[k], d);
                g->packed[i] = y;
                g->worth[i] += (y ^ after[k]) & 0x2222222222222222ULL ? 8 : 2; /* a 4, a 2 */
                bits = legal4(y);
            } else {
                uint8_t *board = g->boards + i * cells;
                place(board, cells, d);
                bits = legal_any(board, side);
            }
            if (!bits) {
                g->over[i] = 1;
                terminated[i] = 1;
            }
            write_out(g, i, obs, masks, scores, bits);
        }
    }
}

/* -- threads: parts of a step at once ------------------------------------------------ */

#ifdef THREADS

/* threads - 1 workers, each waiting for a step's part of its own; the caller steps the
 * first part and waits for the others */
typedef struct Pool {
    Games *g;
    int threads;
    pthread_t *workers;
    pthread_mutex_t lock;
    pthread_cond_t go, done;
    unsigned long generation; /* counts the steps given; a worker steps on each new one */
    int pending, quit;
    int busy; /* 1 while a step uses the pool: a step called meanwhile steps alone */
    Arrays arrays;
    Part *parts;
} Pool;

typedef struct {
    Pool *pool;
    int index;
} Seat;

static void *work(void *arg) {
    Seat seat = *(Seat *)arg;
    free(arg);
    Pool *pool = seat.pool;
    unsigned long seen = 0; /* the generation the pool started at: a step given before
                               this thread ran is still new to it */
    pthread_mutex_lock(&pool->lock);
    for (;;) {
        while (pool->generation == seen && !pool->quit) pthread_cond_wait(&pool->go, &pool->lock);
        if (pool->quit) break;
        seen = pool->generation;
        pthread_mutex_unlock(&pool->lock);
        step_part(pool->g, &pool->arrays, &pool->parts[seat.index]);
        pthread_mutex_lock(&pool->lock);
        if (--pool->pending == 0) pthread_cond_signal(&pool->done);
    }
    pthread_mutex_unlock(&pool->lock);
    return NULL;
}

static void stop_pool(Pool *pool) {
    pthread_mutex_lock(&pool->lock);
    pool->quit = 1;
    pthread_cond_broadcast(&pool->go);
    pthread_mutex_unlock(&pool->lock);
    for (int w = 1; w < pool->threads; w++) pthread_join(pool->workers[w], NULL);
    pthread_mutex_destroy(&pool->lock);
    pthread_cond_destroy(&pool->go);
    pthread_cond_destroy(&pool->done);
    free(pool->workers);
    free(pool->parts);
    free(pool);
}

/* A pool of `threads` (the caller one of them), or NULL (no memory, or no thread). */
static Pool *start_pool(Games *g, int threads) {
    Pool *pool = calloc(1, sizeof(Pool));
    if (!pool) return NULL;
    pool->g = g;
    pool->workers = calloc((size_t)threads, sizeof(pthread_t));
    pool->parts = calloc((size_t)threads, sizeof(Part));
    if (!pool->workers || !pool->parts) {
        free(pool->workers);
        free(pool->parts);
        free(pool);
        return NULL;
    }
    pthread_mutex_init(&pool->lock, NULL);
    pthread_cond_init(&pool->go, NULL);
    pthread_cond_init(&pool->done, NULL);
    pool->threads = 1;
    for (int w = 1; w < threads; w++) {
        Seat *seat = malloc(sizeof(Seat));
        if (!seat) break;
        *seat = (Seat){pool, w};
        if (pthread_create(&pool->workers[w], NULL, work, seat) != 0) {
            free(seat);
            break;
        }
        pool->threads = w + 1;
    }
    if (pool->threads < threads) {
        stop_pool(pool);
        return NULL;
    }
    return pool;
}

/* Step the parts of [first, last) on the pool's threads at once; the first part's result
 * (bad, no_memory) gathers all of theirs. */
static void step_pooled(Pool *pool, const Arrays *arrays, Part *whole) {
    int threads = pool->threads;
    Py_ssize_t first = whole->first, span = whole->last - whole->first;
    pthread_mutex_lock(&pool->lock);
    pool->arrays = *arrays;
    for (int w = 0; w < threads; w++) {
        pool->parts[w] = (Part){first + span * w / threads, first + span * (w + 1) / threads,
                                -1, 0};
    }
    pool->pending = threads - 1;
    pool->generation++;
    pthread_cond_broadcast(&pool->go);
    pthread_mutex_unlock(&pool->lock);
    step_part(pool->g, arrays, &pool->parts[0]);
    pthread_mutex_lock(&pool->lock);
    while (pool->pending) pthread_cond_wait(&pool->done, &pool->lock);
    pthread_mutex_unlock(&pool->lock);
    for (int w = 0; w < threads; w++) {
        if (whole->bad < 0) whole->bad = pool->parts[w].bad;
        whole->no_memory |= pool->parts[w].no_memory;
    }
}
#endif

/* threads(n): step with n threads from now on (the caller's one of them): the number
 * there are (1 where this platform has no threads here). */
static PyObject *Games_threads(Games *g, PyObject *arg) {
    long threads = PyLong_AsLong(arg);
    if (threads == -1 && PyErr_Occurred()) return NULL;
    if (threads < 1 || threads > 256) {
        PyErr_SetString(PyExc_ValueError, "threads: a whole number from 1 to 256");
        return NULL;
    }
#ifdef THREADS
    if (g->pool && __atomic_exchange_n(&g->pool->busy, 1, __ATOMIC_ACQUIRE)) {
        PyErr_SetString(PyExc_RuntimeError, "the batch is stepping: threads() waits for it");
        return NULL;
    }
    if (g->pool) {
        Py_BEGIN_ALLOW_THREADS
        stop_pool(g->pool);
        Py_END_ALLOW_THREADS
        g->pool = NULL;
    }
    if (threads > 1) {
        g->pool = start_pool(g, (int)threads);
        if (!g->pool) {
            PyErr_SetString(PyExc_OSError, "could not start the batch's threads");
            return NULL;
        }
    }
    return PyLong_FromLong(threads);
#else
    return PyLong_FromLong(1);
#endif
}

/* step(actions, obs, rewards, terminated, masks, scores, start=0, stop=-1) */
static PyObject *Games_step(Games *g, PyObject *args) {
    PyObject *objects[6];
    Py_ssize_t first = 0, last = -1;
    if (!PyArg_ParseTuple(args, "OOOOOO|nn", &objects[0], &objects[1], &objects[2],
                          &objects[3], &objects[4], &objects[5], &first, &last))
        return NULL;
    if (range_of(g, &first, &last) < 0) return NULL;
    Held held[6];
    memset(held, 0, sizeof held);
    Py_ssize_t n = g->count;
    if (take(objects[0], &held[0], 8, n, 0, "actions") < 0 ||
        take(objects[1], &held[1], 1, n * g->cells, 1, "obs") < 0 ||
        take(objects[2], &held[2], 8, n, 1, "rewards") < 0 ||
        take(objects[3], &held[3], 1, n, 1, "terminated") < 0 ||
        take(objects[4], &held[4], 1, n * 4, 1, "masks") < 0 ||
        take(objects[5], &held[5], 8, n, 1, "scores") < 0) {
        release(held, 6);
        return NULL;
    }
    Arrays arrays = {held[0].view.buf, held[1].view.buf, held[3].view.buf,
                     held[2].view.buf, held[4].view.buf, held[5].view.buf};
    Part whole = {first, last, -1, 0};
    Py_BEGIN_ALLOW_THREADS
#ifdef THREADS
    Pool *pool = g->pool;
    if (pool && last - first >= 2 * CHUNK &&
        !__atomic_exchange_n(&pool->busy, 1, __ATOMIC_ACQUIRE)) {
        step_pooled(pool, &arrays, &whole);
        __atomic_store_n(&pool->busy, 0, __ATOMIC_RELEASE);
    } else {
        step_part(g, &arrays, &whole);
    }
#else
    step_part(g, &arrays, &whole);
#endif
    Py_END_ALLOW_THREADS
    release(held, 6);
    if (whole.no_memory) return PyErr_NoMemory();
    if (whole.bad >= 0) {
        PyErr_Format(PyExc_ValueError, "game %zd: action %lld is not in Discrete(4): 0 to 3",
                     whole.bad, (long long)arrays.actions[whole.bad]);
        return NULL;
    }
    Py_RETURN_NONE;
}

/* finished(i): (code, moves as bytes, score) of game i's last ended episode, or None. */
static PyObject *Games_finished(Games *g, PyObject *args) {
    Py_ssize_t i;
    if (!PyArg_ParseTuple(args, "n", &i)) return NULL;
    if (i < 0 || i >= g->count) {
        PyErr_SetString(PyExc_IndexError, "no such game in the batch");
        return NULL;
    }
    const char *code;
    Log *log;
    uint64_t score;
    if (g->over[i]) { /* ended on the last step, not yet started again */
        code = g->codes + i * CODE_LENGTH;
        log = &g->logs[i];
        score = g->scores[i];
    } else {
        code = g->ended_codes + i * CODE_LENGTH;
        log = &g->ended[i];
        score = g->ended_scores[i];
        if (!code[0]) Py_RETURN_NONE;
    }
    return Py_BuildValue("(s#y#K)", code, (Py_ssize_t)CODE_LENGTH,
                         log->moves ? (const char *)log->moves : "", log->length,
                         (unsigned long long)score);
}

/* playing(i): (code, moves as bytes) of game i's episode in play (or just ended). */
static PyObject *Games_playing(Games *g, PyObject *args) {
    Py_ssize_t i;
    if (!PyArg_ParseTuple(args, "n", &i)) return NULL;
    if (i < 0 || i >= g->count) {
        PyErr_SetString(PyExc_IndexError, "no such game in the batch");
        return NULL;
    }
    Log *log = &g->logs[i];
    return Py_BuildValue("(s#y#)", g->codes + i * CODE_LENGTH, (Py_ssize_t)CODE_LENGTH,
                         log->moves ? (const char *)log->moves : "", log->length);
}

/* fix(code or None): every game started from now on plays `code` (a daily board). */
static PyObject *Games_fix(Games *g, PyObject *arg) {
    if (arg == Py_None) {
        g->fixed = 0;
        Py_RETURN_NONE;
    }
    Py_ssize_t length;
    const char *text = PyUnicode_AsUTF8AndSize(arg, &length);
    if (!text) return NULL;
    if (length != CODE_LENGTH) {
        PyErr_SetString(PyExc_ValueError, "a code has 8 characters");
        return NULL;
    }
    memcpy(g->fixed_code, text, CODE_LENGTH);
    g->fixed = 1;
    Py_RETURN_NONE;
}

/* a board of side x side exponents from bytes, or -1 with an error set */
static int board_arg(int side, const char *bytes, Py_ssize_t length, uint8_t board[MAX_SIDE * MAX_SIDE]) {
    if (side < 2 || side > MAX_SIDE || length != side * side) {
        PyErr_SetString(PyExc_ValueError, "a board is side * side bytes, side 2 to 6");
        return -1;
    }
    for (Py_ssize_t c = 0; c < length; c++) {
        if ((uint8_t)bytes[c] > MAX_EXPONENT) {
            PyErr_SetString(PyExc_ValueError, "an exponent is at most 31");
            return -1;
        }
        board[c] = (uint8_t)bytes[c];
    }
    return 0;
}

/* put(i, board): game i's board from now on (for tests: its episode no longer replays). */
static PyObject *Games_put(Games *g, PyObject *args) {
    Py_ssize_t i, length;
    const char *bytes;
    if (!PyArg_ParseTuple(args, "ny#", &i, &bytes, &length)) return NULL;
    if (i < 0 || i >= g->count) {
        PyErr_SetString(PyExc_IndexError, "no such game in the batch");
        return NULL;
    }
    uint8_t *board = g->boards + i * g->cells;
    if (board_arg(g->side, bytes, length, board) < 0) return NULL;
    if (g->side == 4) {
        int fits;
        g->packed[i] = pack4(board, &fits);
        g->wide[i] = !fits;
        g->worth[i] = summed(BYTE_WORTH, g->packed[i]);
    }
    Py_RETURN_NONE;
}

static PyMethodDef Games_methods[] = {
    {"reset", (PyCFunction)Games_reset, METH_VARARGS, "Start every game of [start, stop) again."},
    {"seed", (PyCFunction)Games_seed, METH_O, "The games started from now on are those of key."},
    {"step", (PyCFunction)Games_step, METH_VARARGS, "One move of every game of [start, stop)."},
    {"threads", (PyCFunction)Games_threads, METH_O, "Step with n threads from now on."},
    {"finished", (PyCFunction)Games_finished, METH_VARARGS,
     "(code, moves, score) of a game's last ended episode, or None."},
    {"playing", (PyCFunction)Games_playing, METH_VARARGS, "(code, moves) of a game in play."},
    {"fix", (PyCFunction)Games_fix, METH_O, "Every game started from now plays this code."},
    {"put", (PyCFunction)Games_put, METH_VARARGS, "Game i's board from now on (for tests)."},
    {NULL, NULL, 0, NULL}};

static PyTypeObject GamesType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "twofold.variants.classic2048._batch.Games",
    .tp_basicsize = sizeof(Games),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Many 2048 games of one size, stepped at once.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Games_init,
    .tp_dealloc = (destructor)Games_dealloc,
    .tp_methods = Games_methods,
};

/* draw(code, index): one draw of the deal, to check it against core/deal.py's. */
static PyObject *py_draw(PyObject *self, PyObject *args) {
    (void)self;
    const char *code;
    Py_ssize_t length;
    unsigned long long index;
    if (!PyArg_ParseTuple(args, "s#K", &code, &length, &index)) return NULL;
    if (length != CODE_LENGTH) {
        PyErr_SetString(PyExc_ValueError, "a code has 8 characters");
        return NULL;
    }
    return PyLong_FromUnsignedLongLong(draw(code, index));
}

static PyObject *py_code(PyObject *self, PyObject *arg) {
    (void)self;
    unsigned long long number = PyLong_AsUnsignedLongLong(arg);
    if (PyErr_Occurred()) return NULL;
    char code[CODE_LENGTH];
    code_of(number, code);
    return PyUnicode_FromStringAndSize(code, CODE_LENGTH);
}

/* -- the parts, for tests: each against the rules in Python ------------------------------ */

/* legal(side, board): the legal moves' bits, as a step finds them. */
static PyObject *py_legal(PyObject *self, PyObject *args) {
    (void)self;
    int side;
    const char *bytes;
    Py_ssize_t length;
    uint8_t board[MAX_SIDE * MAX_SIDE];
    if (!PyArg_ParseTuple(args, "iy#", &side, &bytes, &length)) return NULL;
    if (board_arg(side, bytes, length, board) < 0) return NULL;
    return PyLong_FromLong(legal_any(board, side));
}

/* slide(side, board, direction, d): (board after the move and draw d's tile, gain, made),
 * as a step plays them, or None where the move changes nothing. */
static PyObject *py_slide(PyObject *self, PyObject *args) {
    (void)self;
    int side, direction;
    const char *bytes;
    Py_ssize_t length;
    unsigned long long d;
    uint8_t board[MAX_SIDE * MAX_SIDE];
    if (!PyArg_ParseTuple(args, "iy#iK", &side, &bytes, &length, &direction, &d)) return NULL;
    if (board_arg(side, bytes, length, board) < 0) return NULL;
    if (direction < 0 || direction > 3) {
        PyErr_SetString(PyExc_ValueError, "a direction is 0 to 3");
        return NULL;
    }
    uint64_t gain = 0, made = 0;
    int fits = 0, done = 0;
    if (side == 4) {
        uint64_t x = pack4(board, &fits);
        if (fits && small4(x)) {
            uint64_t y = move4(x, direction);
            if (y == x) Py_RETURN_NONE;
            unpack4(place4(y, d), board);
            gain = summed(BYTE_WORTH, y) - summed(BYTE_WORTH, x);
            made = summed(BYTE_MADE, y) - summed(BYTE_MADE, x);
            done = 1;
        }
    }
    if (!done) {
        if (!moves(board, side, direction)) Py_RETURN_NONE;
        gain = slide(board, side, direction, &made);
        place(board, side * side, d);
    }
    return Py_BuildValue("(y#KK)", (const char *)board, (Py_ssize_t)(side * side),
                         (unsigned long long)gain, (unsigned long long)made);
}

/* draws(code, index): four draws from index on, by the batch's four-lane hash. */
static PyObject *py_draws(PyObject *self, PyObject *args) {
    (void)self;
    const char *code;
    Py_ssize_t length;
    unsigned long long index;
    if (!PyArg_ParseTuple(args, "s#K", &code, &length, &index)) return NULL;
    if (length != CODE_LENGTH || index + 4 > SHORT_INDEX) {
        PyErr_SetString(PyExc_ValueError, "a code has 8 characters; an index is below 10**7 - 3");
        return NULL;
    }
    uint64_t words0[4], words1[4], lengths[4], out[4];
    for (int k = 0; k < 4; k++) {
        words0[k] = load64((const uint8_t *)code);
        words1[k] = second_word(index + (uint64_t)k, &lengths[k]);
    }
    draw4(words0, words1, lengths, out);
    return Py_BuildValue("(KKKK)", (unsigned long long)out[0], (unsigned long long)out[1],
                         (unsigned long long)out[2], (unsigned long long)out[3]);
}

/* kernel(name or None): the four-lane hash steps use from now ("avx2" where the CPU has
 * it, "plain" anywhere), for tests of each; its name. */
static PyObject *py_kernel(PyObject *self, PyObject *arg) {
    (void)self;
    if (arg != Py_None) {
        const char *name = PyUnicode_AsUTF8(arg);
        if (!name) return NULL;
        if (!strcmp(name, "plain")) {
            draw4 = draw4_plain;
#ifdef AVX2_KERNEL
        } else if (!strcmp(name, "avx2") && __builtin_cpu_supports("avx2")) {
            draw4 = draw4_avx2;
#endif
        } else {
            PyErr_SetString(PyExc_ValueError, "no such kernel here");
            return NULL;
        }
    }
#ifdef AVX2_KERNEL
    if (draw4 == draw4_avx2) return PyUnicode_FromString("avx2");
#endif
    return PyUnicode_FromString("plain");
}

/* number(key, i, e): the code number of game i's episode e of a batch seeded with key. */
static PyObject *py_number(PyObject *self, PyObject *args) {
    (void)self;
    unsigned long long key, i, e;
    if (!PyArg_ParseTuple(args, "KKK", &key, &i, &e)) return NULL;
    return PyLong_FromUnsignedLongLong(number_of(key, i, e));
}

static PyMethodDef module_methods[] = {
    {"draw", py_draw, METH_VARARGS, "Draw index of the deal of code."},
    {"code", py_code, METH_O, "The code of a number below 32**7."},
    {"number", py_number, METH_VARARGS, "The code number of game i's episode e under key."},
    {"legal", py_legal, METH_VARARGS, "The legal moves' bits of a board, as a step finds them."},
    {"slide", py_slide, METH_VARARGS, "(board, gain, made) after a move and a draw's tile."},
    {"draws", py_draws, METH_VARARGS, "Four draws from index on, by the four-lane hash."},
    {"kernel", py_kernel, METH_O, "The four-lane hash in use (set by name, or None)."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_batch",
                                    "Many 2048 games stepped at once, compiled.", -1,
                                    module_methods};

PyMODINIT_FUNC PyInit__batch(void) {
    init_blake();
    init_lines();
    init_rows();
#ifdef AVX2_KERNEL
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2")) draw4 = draw4_avx2;
#endif
    if (PyType_Ready(&GamesType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&GamesType);
    if (PyModule_AddObject(m, "Games", (PyObject *)&GamesType) < 0) {
        Py_DECREF(&GamesType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
