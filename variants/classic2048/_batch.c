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
 * autoreset) from the code number the caller put in numbers[i] (used[i] says it was
 * taken), or from the batch's fixed code (a daily board). Each game's moves are kept,
 * one byte a move, so its last ended episode can be replayed and proved: finished(i).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

/* Four draws at once, one a lane (GCC's vector types: AVX2 where the CPU has it, chosen
 * when the module loads): the same compression as draw(), for messages of one block
 * whose words past the second are zero (an index below 10**7). */
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

#define DRAW4_BODY                                                                     \
    lanes m[16], v[16];                                                                \
    for (int i = 0; i < 16; i++) m[i] = (lanes){0, 0, 0, 0};                           \
    for (int k = 0; k < 4; k++) {                                                      \
        m[0][k] = words0[k];                                                           \
        m[1][k] = words1[k];                                                           \
    }                                                                                  \
    for (int i = 0; i < 8; i++) {                                                      \
        v[i] = (lanes){H0[i], H0[i], H0[i], H0[i]};                                    \
        v[i + 8] = (lanes){IV[i], IV[i], IV[i], IV[i]};                                \
    }                                                                                  \
    v[12] ^= (lanes){lengths[0], lengths[1], lengths[2], lengths[3]};                  \
    v[14] = ~v[14];                                                                    \
    for (int r = 0; r < 12; r++) {                                                     \
        const uint8_t *s = SIGMA[r];                                                   \
        VG(v[0], v[4], v[8], v[12], m[s[0]], m[s[1]]);                                 \
        VG(v[1], v[5], v[9], v[13], m[s[2]], m[s[3]]);                                 \
        VG(v[2], v[6], v[10], v[14], m[s[4]], m[s[5]]);                                \
        VG(v[3], v[7], v[11], v[15], m[s[6]], m[s[7]]);                                \
        VG(v[0], v[5], v[10], v[15], m[s[8]], m[s[9]]);                                \
        VG(v[1], v[6], v[11], v[12], m[s[10]], m[s[11]]);                              \
        VG(v[2], v[7], v[8], v[13], m[s[12]], m[s[13]]);                               \
        VG(v[3], v[4], v[9], v[14], m[s[14]], m[s[15]]);                               \
    }                                                                                  \
    lanes h = (lanes){H0[0], H0[0], H0[0], H0[0]} ^ v[0] ^ v[8];                       \
    for (int k = 0; k < 4; k++) out[k] = __builtin_bswap64(h[k]);

__attribute__((target("avx2"))) static void draw4_avx2(const uint64_t words0[4],
                                                       const uint64_t words1[4],
                                                       const uint64_t lengths[4],
                                                       uint64_t out[4]) {
    DRAW4_BODY
}

static void draw4_plain(const uint64_t words0[4], const uint64_t words1[4],
                        const uint64_t lengths[4], uint64_t out[4]) {
    DRAW4_BODY
}

static void (*draw4)(const uint64_t *, const uint64_t *, const uint64_t *, uint64_t *) =
    draw4_plain;

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
    uint8_t *boards;   /* count x cells exponents */
    uint64_t *draws;   /* the deal's draws each game has used */
    uint64_t *scores;
    uint8_t *over;     /* 1: ended, started again on its next step */
    char *codes;       /* count x CODE_LENGTH */
    Log *logs;         /* the moves of each game in play */
    Log *ended;        /* the moves of each game's last ended episode */
    char *ended_codes;
    uint64_t *ended_scores;
    int fixed;         /* 1: every game plays fixed_code (a daily board) */
    char fixed_code[CODE_LENGTH];
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

/* 4x4 boards, the common case, by tables of every row of four exponents up to 15 (a
 * 32768): the board packed in 64 bits, four bits a cell, row r in bits 16r..16r+15 with
 * column c at 4c. A board with a larger tile, or a move that would make one, takes the
 * general path above. */
typedef struct {
    uint16_t moved; /* the row after the move */
    uint8_t made;   /* log2 of each tile made, summed */
    uint8_t over;   /* 1: the move would make a 65536 (beyond four bits) */
    uint32_t gain;  /* the score it gains */
} Row;

static Row ROWS[2][65536]; /* [0]: towards column 0; [1]: towards column 3 */
/* the row after each move alone (what the legal moves read: a quarter of the bytes) */
static uint16_t ROW_MOVED[2][65536];

static void init_rows(void) {
    for (unsigned row = 0; row < 65536; row++) {
        for (int towards = 0; towards < 2; towards++) {
            uint8_t line[4], result[4] = {0, 0, 0, 0};
            for (int k = 0; k < 4; k++) line[k] = (row >> (4 * (towards ? 3 - k : k))) & 15;
            int length = 0, last_made = 0;
            uint32_t gain = 0;
            uint8_t made = 0, over = 0;
            for (int k = 0; k < 4; k++) {
                uint8_t e = line[k];
                if (!e) continue;
                if (length && result[length - 1] == e && !last_made) {
                    if (e == 15) over = 1;
                    result[length - 1] = (uint8_t)(e + 1);
                    gain += 1u << (e + 1);
                    made = (uint8_t)(made + e + 1);
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
            ROWS[towards][row] = (Row){(uint16_t)moved, made, over, gain};
        }
    }
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

/* The board packed, or 0 with *fits 0 where a tile is beyond four bits. */
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

static inline uint64_t pack4(const uint8_t *board, int *fits) {
    uint64_t low = word_at(board), high = word_at(board + 8);
    *fits = ((low | high) & 0xF0F0F0F0F0F0F0F0ULL) == 0;
    return nibbles(low) | nibbles(high) << 32;
}

static inline void unpack4(uint64_t x, uint8_t *board) {
    put_word(board, bytes_of(x & 0xFFFFFFFFULL));
    put_word(board + 8, bytes_of(x >> 32));
}

static inline int legal4(uint64_t x) {
    uint64_t t = transpose4(x);
    int bits = 0;
    for (int r = 0; r < 4; r++) {
        unsigned row = (x >> (16 * r)) & 0xFFFF, column = (t >> (16 * r)) & 0xFFFF;
        bits |= (ROW_MOVED[0][row] != row) | (ROW_MOVED[1][row] != row) << 1 |
                (ROW_MOVED[0][column] != column) << 2 | (ROW_MOVED[1][column] != column) << 3;
    }
    return bits;
}

/* A move of a packed 4x4 board: 1 moved (board written), 0 no move, -1 the general path. */
static inline int move4(uint8_t *board, uint64_t x, int direction, uint64_t *gain,
                        uint64_t *made, uint64_t *after) {
    int towards = direction & 1, columns = direction >> 1;
    uint64_t from = columns ? transpose4(x) : x, to = 0;
    uint64_t gained = 0, log2 = 0;
    for (int r = 0; r < 4; r++) {
        const Row *found = &ROWS[towards][(from >> (16 * r)) & 0xFFFF];
        if (found->over) return -1;
        to |= (uint64_t)found->moved << (16 * r);
        gained += found->gain;
        log2 += found->made;
    }
    if (to == from) return 0;
    if (columns) to = transpose4(to);
    unpack4(to, board);
    *after = to;
    *gain = gained;
    *made = log2;
    return 1;
}

/* The legal moves of a board, as bits, by the tables where it fits them. */
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

/* The deal's next tile on an empty cell of game i. */
/* Draw d's tile on game i; its cell and exponent as cell << 8 | exponent. */
static int place(Games *g, Py_ssize_t i, uint64_t d) {
    uint8_t *board = g->boards + i * g->cells;
    int empty[MAX_SIDE * MAX_SIDE], count = 0;
    for (int c = 0; c < g->cells; c++)
        if (!board[c]) empty[count++] = c;
    g->draws[i]++;
    int cell = empty[d % (uint64_t)count], exponent = ((d >> 32) % 10 == 0) ? 2 : 1;
    board[cell] = (uint8_t)exponent;
    return cell << 8 | exponent;
}

static void spawn(Games *g, Py_ssize_t i) {
    place(g, i, draw(g->codes + i * CODE_LENGTH, g->draws[i]));
}

/* Start game i on `code`: two tiles from draws 0 and 1. */
static void start(Games *g, Py_ssize_t i, const char code[CODE_LENGTH]) {
    memcpy(g->codes + i * CODE_LENGTH, code, CODE_LENGTH);
    memset(g->boards + i * g->cells, 0, (size_t)g->cells);
    g->draws[i] = 0;
    g->scores[i] = 0;
    g->over[i] = 0;
    g->logs[i].length = 0;
    spawn(g, i);
    spawn(g, i);
}

static void Games_dealloc(Games *g) {
    if (g->logs) {
        for (Py_ssize_t i = 0; i < g->count; i++) {
            free(g->logs[i].moves);
            free(g->ended[i].moves);
        }
    }
    free(g->boards);
    free(g->draws);
    free(g->scores);
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
    g->side = side;
    g->cells = side * side;
    g->count = count;
    g->log2_reward = log2;
    g->boards = calloc((size_t)(count * g->cells), 1);
    g->draws = calloc((size_t)count, sizeof(uint64_t));
    g->scores = calloc((size_t)count, sizeof(uint64_t));
    g->over = calloc((size_t)count, 1);
    g->codes = calloc((size_t)count, CODE_LENGTH);
    g->logs = calloc((size_t)count, sizeof(Log));
    g->ended = calloc((size_t)count, sizeof(Log));
    g->ended_codes = calloc((size_t)count, CODE_LENGTH);
    g->ended_scores = calloc((size_t)count, sizeof(uint64_t));
    if (!g->boards || !g->draws || !g->scores || !g->over || !g->codes || !g->logs ||
        !g->ended || !g->ended_codes || !g->ended_scores) {
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

static void write_known(Games *g, Py_ssize_t i, uint8_t *obs, int8_t *masks, int64_t *scores,
                        int bits) {
    memcpy(obs + i * g->cells, g->boards + i * g->cells, (size_t)g->cells);
    for (int d = 0; d < 4; d++) masks[i * 4 + d] = (int8_t)(bits >> d & 1);
    scores[i] = (int64_t)g->scores[i];
}

static void write_out(Games *g, Py_ssize_t i, uint8_t *obs, int8_t *masks, int64_t *scores) {
    int bits = g->over[i] ? 0 : legal_any(g->boards + i * g->cells, g->side);
    write_known(g, i, obs, masks, scores, bits);
}

/* reset(numbers, obs, masks, scores, used, start=0, stop=-1): start every game again. */
static PyObject *Games_reset(Games *g, PyObject *args) {
    PyObject *objects[5];
    Py_ssize_t first = 0, last = -1;
    if (!PyArg_ParseTuple(args, "OOOOO|nn", &objects[0], &objects[1], &objects[2],
                          &objects[3], &objects[4], &first, &last))
        return NULL;
    if (range_of(g, &first, &last) < 0) return NULL;
    Held held[5];
    memset(held, 0, sizeof held);
    Py_ssize_t n = g->count;
    if (take(objects[0], &held[0], 8, n, 0, "numbers") < 0 ||
        take(objects[1], &held[1], 1, n * g->cells, 1, "obs") < 0 ||
        take(objects[2], &held[2], 1, n * 4, 1, "masks") < 0 ||
        take(objects[3], &held[3], 8, n, 1, "scores") < 0 ||
        take(objects[4], &held[4], 1, n, 1, "used") < 0) {
        release(held, 5);
        return NULL;
    }
    const uint64_t *numbers = held[0].view.buf;
    uint8_t *obs = held[1].view.buf, *used = held[4].view.buf;
    int8_t *masks = held[2].view.buf;
    int64_t *scores = held[3].view.buf;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = first; i < last; i++) {
        char code[CODE_LENGTH];
        if (g->fixed) {
            memcpy(code, g->fixed_code, CODE_LENGTH);
        } else {
            code_of(numbers[i], code);
            used[i] = 1;
        }
        start(g, i, code);
        write_out(g, i, obs, masks, scores);
    }
    Py_END_ALLOW_THREADS
    release(held, 5);
    Py_RETURN_NONE;
}

/* step(actions, obs, rewards, terminated, masks, scores, numbers, used, start=0, stop=-1) */
static PyObject *Games_step(Games *g, PyObject *args) {
    PyObject *objects[8];
    Py_ssize_t first = 0, last = -1;
    if (!PyArg_ParseTuple(args, "OOOOOOOO|nn", &objects[0], &objects[1], &objects[2],
                          &objects[3], &objects[4], &objects[5], &objects[6], &objects[7],
                          &first, &last))
        return NULL;
    if (range_of(g, &first, &last) < 0) return NULL;
    Held held[8];
    memset(held, 0, sizeof held);
    Py_ssize_t n = g->count;
    if (take(objects[0], &held[0], 8, n, 0, "actions") < 0 ||
        take(objects[1], &held[1], 1, n * g->cells, 1, "obs") < 0 ||
        take(objects[2], &held[2], 8, n, 1, "rewards") < 0 ||
        take(objects[3], &held[3], 1, n, 1, "terminated") < 0 ||
        take(objects[4], &held[4], 1, n * 4, 1, "masks") < 0 ||
        take(objects[5], &held[5], 8, n, 1, "scores") < 0 ||
        take(objects[6], &held[6], 8, n, 0, "numbers") < 0 ||
        take(objects[7], &held[7], 1, n, 1, "used") < 0) {
        release(held, 8);
        return NULL;
    }
    const int64_t *actions = held[0].view.buf;
    uint8_t *obs = held[1].view.buf, *terminated = held[3].view.buf, *used = held[7].view.buf;
    double *rewards = held[2].view.buf;
    int8_t *masks = held[4].view.buf;
    int64_t *scores = held[5].view.buf;
    const uint64_t *numbers = held[6].view.buf;
    Py_ssize_t bad = -1;
    int no_memory = 0;
    Py_BEGIN_ALLOW_THREADS
    /* four games at a time: their slides, then their four draws at once, then the tiles */
    for (Py_ssize_t base = first; base < last; base += 4) {
        Py_ssize_t top = base + 4 < last ? base + 4 : last;
        uint64_t words0[4] = {0}, words1[4] = {0}, lengths[4] = {9, 9, 9, 9}, drawn[4];
        int moved[4] = {0, 0, 0, 0}, any = 0, packed[4] = {0, 0, 0, 0};
        uint64_t after[4];
        for (Py_ssize_t i = base; i < top; i++) {
            int k = (int)(i - base);
            rewards[i] = 0.0;
            terminated[i] = 0;
            if (g->over[i]) { /* ended on the step before: started again, its action unread */
                Log kept = g->ended[i];
                g->ended[i] = g->logs[i];
                g->logs[i] = kept;
                memcpy(g->ended_codes + i * CODE_LENGTH, g->codes + i * CODE_LENGTH,
                       CODE_LENGTH);
                g->ended_scores[i] = g->scores[i];
                char code[CODE_LENGTH];
                if (g->fixed) {
                    memcpy(code, g->fixed_code, CODE_LENGTH);
                } else {
                    code_of(numbers[i], code);
                    used[i] = 1;
                }
                start(g, i, code);
                continue;
            }
            int64_t action = actions[i];
            if (action < 0 || action > 3) {
                if (bad < 0) bad = i;
                continue;
            }
            uint8_t *board = g->boards + i * g->cells;
            uint64_t made = 0, gain = 0;
            int done = -1;
            if (g->side == 4) {
                int fits;
                uint64_t x = pack4(board, &fits);
                if (fits) done = move4(board, x, (int)action, &gain, &made, &after[k]);
                packed[k] = done > 0;
            }
            if (done == 0) continue; /* no move: reward 0 */
            if (done < 0) {
                if (!moves(board, g->side, (int)action)) continue;
                gain = slide(board, g->side, (int)action, &made);
            }
            g->scores[i] += gain;
            rewards[i] = g->log2_reward ? (double)made : (double)gain;
            Log *log = &g->logs[i];
            if (lengthen(log) < 0) {
                no_memory = 1;
            } else {
                log->moves[log->length++] = (uint8_t)action;
            }
            moved[k] = 1;
            if (g->draws[i] < SHORT_INDEX) {
                any = 1;
                words0[k] = load64((const uint8_t *)g->codes + i * CODE_LENGTH);
                words1[k] = second_word(g->draws[i], &lengths[k]);
            }
        }
        if (any) draw4(words0, words1, lengths, drawn);
        for (Py_ssize_t i = base; i < top; i++) {
            int k = (int)(i - base);
            if (moved[k]) {
                int bits;
                if (g->draws[i] < SHORT_INDEX) {
                    int put = place(g, i, drawn[k]);
                    bits = packed[k] ? legal4(after[k] | (uint64_t)(put & 255) << (4 * (put >> 8)))
                                     : legal_any(g->boards + i * g->cells, g->side);
                } else {
                    spawn(g, i);
                    bits = legal_any(g->boards + i * g->cells, g->side);
                }
                if (!bits) {
                    g->over[i] = 1;
                    terminated[i] = 1;
                }
                write_known(g, i, obs, masks, scores, bits);
            } else {
                write_out(g, i, obs, masks, scores);
            }
        }
    }
    Py_END_ALLOW_THREADS
    release(held, 8);
    if (no_memory) return PyErr_NoMemory();
    if (bad >= 0) {
        PyErr_Format(PyExc_ValueError, "game %zd: action %lld is not in Discrete(4): 0 to 3",
                     bad, (long long)actions[bad]);
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

static PyMethodDef Games_methods[] = {
    {"reset", (PyCFunction)Games_reset, METH_VARARGS, "Start every game of [start, stop) again."},
    {"step", (PyCFunction)Games_step, METH_VARARGS, "One move of every game of [start, stop)."},
    {"finished", (PyCFunction)Games_finished, METH_VARARGS,
     "(code, moves, score) of a game's last ended episode, or None."},
    {"playing", (PyCFunction)Games_playing, METH_VARARGS, "(code, moves) of a game in play."},
    {"fix", (PyCFunction)Games_fix, METH_O, "Every game started from now plays this code."},
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
    unsigned long long number = PyLong_AsUnsignedLongLong(arg);
    if (PyErr_Occurred()) return NULL;
    char code[CODE_LENGTH];
    code_of(number, code);
    return PyUnicode_FromStringAndSize(code, CODE_LENGTH);
}

static PyMethodDef module_methods[] = {
    {"draw", py_draw, METH_VARARGS, "Draw index of the deal of code."},
    {"code", py_code, METH_O, "The code of a number below 32**7."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_batch",
                                    "Many 2048 games stepped at once, compiled.", -1,
                                    module_methods};

PyMODINIT_FUNC PyInit__batch(void) {
    init_blake();
    init_lines();
    init_rows();
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2")) draw4 = draw4_avx2;
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
