/*
 * The 2048 solver's search for 4x4 boards, compiled: the same expectimax as
 * Solver._search in solver.py, node for node and float operation for float operation,
 * so a move chosen here is the move the Python search would choose, only sooner.
 *
 * A board is one 64-bit word: cell (row, col) holds its tile's exponent in the four
 * bits at 4 * (4 * row + col), so row 0 (the top) is the low 16 bits and column 0 the
 * low nibble of its row. The leaf heuristic is the caller's: configure() takes the
 * value of every one of the 65,536 rows, computed in Python by solver.line_score, so
 * the two searches add up the very same doubles. Nothing here may be reassociated or
 * fused (setup.py compiles with -ffp-contract=off) or the two would drift apart.
 *
 * Four bits hold exponents up to 15 (32768). A move that would merge two 32768s sets
 * a flag instead; scores() then returns None and the caller searches in Python.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t board_t;

#define ROWS 65536
#define ROW_MASK 0xFFFFULL

static uint16_t row_left[ROWS], row_right[ROWS];
/* 1 where moving the row that way would make an exponent of 16 */
static uint8_t left_overflows[ROWS], right_overflows[ROWS];
static double heuristic[ROWS];
static int configured = 0;

/* Resolve one line of four exponents towards index 0, as trace_line in slide.py. */
static uint16_t trace_line(const unsigned cells[4], uint8_t *overflow) {
    unsigned result[4] = {0, 0, 0, 0};
    int length = 0, last_made = 0;
    for (int index = 0; index < 4; index++) {
        unsigned exponent = cells[index];
        if (!exponent) continue;
        if (length && result[length - 1] == exponent && !last_made) {
            if (exponent == 15) *overflow = 1;
            result[length - 1] = exponent + 1;
            last_made = 1;
        } else {
            result[length++] = exponent;
            last_made = 0;
        }
    }
    return (uint16_t)((result[0] & 15) | (result[1] & 15) << 4 | (result[2] & 15) << 8 |
                      (result[3] & 15) << 12);
}

static void build_rows(void) {
    for (unsigned row = 0; row < ROWS; row++) {
        unsigned cells[4], reversed[4];
        for (int i = 0; i < 4; i++) {
            cells[i] = (row >> (4 * i)) & 15;
            reversed[3 - i] = cells[i];
        }
        row_left[row] = trace_line(cells, &left_overflows[row]);
        uint16_t back = trace_line(reversed, &right_overflows[row]);
        row_right[row] = (uint16_t)((back >> 12) | ((back >> 4) & 0xF0) | ((back << 4) & 0xF00) |
                                    (back << 12));
    }
}

/* Rows become columns: cell (r, c) moves to (c, r). */
static inline board_t transpose(board_t x) {
    board_t a1 = x & 0xF0F00F0FF0F00F0FULL;
    board_t a2 = x & 0x0000F0F00000F0F0ULL;
    board_t a3 = x & 0x0F0F00000F0F0000ULL;
    board_t a = a1 | (a2 << 12) | (a3 >> 12);
    board_t b1 = a & 0xFF00FF0000FF00FFULL;
    board_t b2 = a & 0x00FF00FF00000000ULL;
    board_t b3 = a & 0x00000000FF00FF00ULL;
    return b1 | (b2 >> 24) | (b3 << 24);
}

static inline board_t rows_moved(board_t b, const uint16_t *table, const uint8_t *overflows,
                                 int *overflow) {
    unsigned r0 = (unsigned)(b & ROW_MASK), r1 = (unsigned)((b >> 16) & ROW_MASK),
             r2 = (unsigned)((b >> 32) & ROW_MASK), r3 = (unsigned)(b >> 48);
    if (overflows) *overflow |= overflows[r0] | overflows[r1] | overflows[r2] | overflows[r3];
    return (board_t)table[r0] | (board_t)table[r1] << 16 | (board_t)table[r2] << 32 |
           (board_t)table[r3] << 48;
}

/* The four boards a move can give, in DIRECTIONS order: left, right, up, down, and (for
   leaves, which score rows and columns) each one's transpose. */
static inline void successors(board_t b, board_t out[4], board_t flipped[4], int *overflow) {
    board_t t = transpose(b);
    /* overflow NULL: no 65536 can be made in this search (see may_overflow) */
    const uint8_t *lefts = overflow ? left_overflows : NULL;
    const uint8_t *rights = overflow ? right_overflows : NULL;
    out[0] = rows_moved(b, row_left, lefts, overflow);
    out[1] = rows_moved(b, row_right, rights, overflow);
    board_t up = rows_moved(t, row_left, lefts, overflow);
    board_t down = rows_moved(t, row_right, rights, overflow);
    out[2] = transpose(up);
    out[3] = transpose(down);
    if (flipped != NULL) {
        flipped[0] = transpose(out[0]);
        flipped[1] = transpose(out[1]);
        flipped[2] = up;
        flipped[3] = down;
    }
}

/* Summed left to right, as the generated evaluate() in solver.py; t is b transposed. */
static inline double leaf_of(board_t b, board_t t) {
    return heuristic[b & ROW_MASK] + heuristic[(b >> 16) & ROW_MASK] +
           heuristic[(b >> 32) & ROW_MASK] + heuristic[b >> 48] + heuristic[t & ROW_MASK] +
           heuristic[(t >> 16) & ROW_MASK] + heuristic[(t >> 32) & ROW_MASK] + heuristic[t >> 48];
}

/* The low bit of every empty cell's nibble. */
static inline board_t empty_cells(board_t b) {
    board_t filled = b | b >> 1;
    filled |= filled >> 2;
    return ~filled & 0x1111111111111111ULL;
}

/* Whether a full board has no move left: no two neighbours in a row or a column are equal
   (a nibble of b ^ b >> 4, or of b ^ b >> 16, that is zero where two cells pair up). */
static inline int stuck(board_t full) {
    board_t across = full ^ full >> 4, down = full ^ full >> 16;
    across |= across >> 1;
    across |= across >> 2;
    down |= down >> 1;
    down |= down >> 2;
    return !(~across & 0x0111011101110111ULL) && !(~down & 0x0000111111111111ULL);
}

/* A board whose branch is pruned as too unlikely: the leaf heuristic, times the chance that
   the next tile leaves a move. Only a board with one empty cell can be filled without a move
   left, and a lost board is worth 0, so the pruning never hides a tile that ends the game.
   (At the depth limit the leaf is the heuristic alone: checking there cost 7% of the time.)
   t is b transposed. */
static inline double horizon_of(board_t b, board_t t) {
    double value = leaf_of(b, t);
    board_t empties = empty_cells(b);
    if (!empties || empties & (empties - 1)) return value;
    int two = !stuck(b | empties), four = !stuck(b | empties << 1);
    if (two && four) return value;
    return value * (two ? 0.9 : four ? 0.1 : 0.0);
}

static inline double leaf(board_t b) { return leaf_of(b, transpose(b)); }

static inline double horizon(board_t b) { return horizon_of(b, transpose(b)); }

/* -- the chance nodes' cache: an unbounded map board -> (depth, value), as a dict ------ */

typedef struct {
    board_t board; /* 0: a free slot (a board after a move is never empty) */
    int depth;
    double value;
} Entry;

typedef struct {
    Entry *slots;
    size_t mask;
    size_t used;
    double threshold;
    int *check; /* &overflow where a 65536 could be made, else NULL */
    int overflow;
    int out_of_memory;
} Search;

static inline size_t slot_of(board_t board, size_t mask) {
    board ^= board >> 29;
    board *= 0xBF58476D1CE4E5B9ULL;
    board ^= board >> 32;
    return (size_t)board & mask;
}

static Entry *find(Search *s, board_t board) {
    size_t i = slot_of(board, s->mask);
    while (s->slots[i].board && s->slots[i].board != board) i = (i + 1) & s->mask;
    return &s->slots[i];
}

static int grow(Search *s) {
    size_t capacity = (s->mask + 1) * 2;
    Entry *slots = calloc(capacity, sizeof(Entry));
    if (!slots) return 0;
    Entry *old = s->slots;
    size_t old_capacity = s->mask + 1;
    s->slots = slots;
    s->mask = capacity - 1;
    for (size_t i = 0; i < old_capacity; i++)
        if (old[i].board) *find(s, old[i].board) = old[i];
    free(old);
    return 1;
}

static void remember(Search *s, board_t board, int depth, double value) {
    Entry *entry = find(s, board);
    if (!entry->board) {
        if (2 * (s->used + 1) > s->mask + 1) {
            if (!grow(s)) {
                s->out_of_memory = 1;
                return;
            }
            entry = find(s, board);
        }
        s->used++;
        entry->board = board;
    }
    entry->depth = depth;
    entry->value = value;
}

/* -- the search -------------------------------------------------------------------- */

static double best(Search *s, board_t board, int depth, double probability);

static double chance(Search *s, board_t board, int depth, double probability) {
    if (depth == 0) return leaf(board);
    if (probability < s->threshold) return horizon(board);
    Entry *known = find(s, board);
    if (known->board && known->depth >= depth) return known->value;
    board_t empties = empty_cells(board); /* cells in ascending order */
    int empty = (int)((empties * 0x1111111111111111ULL) >> 60); /* at most 15: a move was made */
    double share = probability / empty;
    double two = share * 0.9, four = share * 0.1;
    double total = 0.0;
    for (; empties; empties &= empties - 1) {
        board_t tile = empties & -empties;
        total += 0.9 * best(s, board | tile, depth, two);
        total += 0.1 * best(s, board | tile << 1, depth, four);
    }
    double value = total / empty;
    remember(s, board, depth, value);
    return value;
}

static double best(Search *s, board_t board, int depth, double probability) {
    board_t moved[4], flipped[4];
    /* no move left: the game is lost, and the sooner the worse (a lost game a move past the
       horizon scores 0), so a board that loses whatever happens still plays for time */
    double top = -(double)depth;
    if (depth == 1 || probability < s->threshold) { /* the moves lead to leaves */
        successors(board, moved, flipped, s->check);
        /* a move never empties fewer cells than the board has: past one, no leaf can die */
        if (probability < s->threshold && !(empty_cells(board) & (empty_cells(board) - 1))) {
            for (int d = 0; d < 4; d++) {
                if (moved[d] == board) continue;
                double value = horizon_of(moved[d], flipped[d]);
                if (value > top) top = value;
            }
            return top;
        }
        for (int d = 0; d < 4; d++) {
            if (moved[d] == board) continue;
            double value = leaf_of(moved[d], flipped[d]);
            if (value > top) top = value;
        }
        return top;
    }
    successors(board, moved, NULL, s->check);
    for (int d = 0; d < 4; d++) {
        if (moved[d] == board) continue;
        double value = chance(s, moved[d], depth - 1, probability);
        if (value > top) top = value;
    }
    return top;
}

/* -- Python ------------------------------------------------------------------------ */

static PyObject *configure(PyObject *self, PyObject *arg) {
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_C_CONTIGUOUS) < 0) return NULL;
    if (view.len != (Py_ssize_t)sizeof(heuristic)) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError, "the heuristic takes 65536 doubles, one per row");
        return NULL;
    }
    /* searches in other threads read the table without the GIL: fill it once only */
    if (!configured) {
        memcpy(heuristic, view.buf, sizeof(heuristic));
        configured = 1;
    }
    PyBuffer_Release(&view);
    Py_RETURN_NONE;
}

static int read_board(PyObject *arg, board_t *board) {
    *board = (board_t)PyLong_AsUnsignedLongLong(arg);
    return !(*board == (board_t)-1 && PyErr_Occurred());
}

/* Whether a search of depth moves from board could merge two 32768s: only if its tiles and
   the at most depth 4s that spawn on the way add up to 65536 (a merge keeps the sum). */
static int may_overflow(board_t board, int depth) {
    uint64_t sum = 4 * (uint64_t)depth;
    for (; board; board >>= 4)
        if (board & 15) sum += 1ULL << (board & 15);
    return sum >= 65536;
}

static PyObject *scores(PyObject *self, PyObject *args) {
    PyObject *packed;
    int depth;
    double threshold;
    if (!PyArg_ParseTuple(args, "Oid", &packed, &depth, &threshold)) return NULL;
    board_t board;
    if (!read_board(packed, &board)) return NULL;
    if (!configured) {
        PyErr_SetString(PyExc_RuntimeError, "configure() the heuristic first");
        return NULL;
    }
    if (depth < 1) {
        PyErr_SetString(PyExc_ValueError, "the depth is at least 1");
        return NULL;
    }
    Search s = {calloc(1 << 12, sizeof(Entry)), (1 << 12) - 1, 0, threshold, NULL, 0, 0};
    if (!s.slots) return PyErr_NoMemory();
    if (may_overflow(board, depth)) s.check = &s.overflow;
    double found[4];
    board_t moved[4];
    Py_BEGIN_ALLOW_THREADS
    successors(board, moved, NULL, &s.overflow);
    for (int d = 0; d < 4; d++)
        if (moved[d] != board) found[d] = chance(&s, moved[d], depth - 1, 1.0);
    Py_END_ALLOW_THREADS
    free(s.slots);
    if (s.out_of_memory) return PyErr_NoMemory();
    if (s.overflow) Py_RETURN_NONE;
    PyObject *result = PyTuple_New(4);
    if (!result) return NULL;
    for (int d = 0; d < 4; d++) {
        PyObject *item = moved[d] == board ? Py_NewRef(Py_None) : PyFloat_FromDouble(found[d]);
        if (!item) {
            Py_DECREF(result);
            return NULL;
        }
        PyTuple_SET_ITEM(result, d, item);
    }
    return result;
}

static PyObject *moves(PyObject *self, PyObject *arg) {
    board_t board;
    if (!read_board(arg, &board)) return NULL;
    board_t moved[4];
    int overflow = 0;
    successors(board, moved, NULL, &overflow);
    if (overflow) Py_RETURN_NONE;
    return Py_BuildValue("(KKKK)", moved[0], moved[1], moved[2], moved[3]);
}

static PyMethodDef methods[] = {
    {"configure", configure, METH_O,
     "configure(rows: buffer of 65536 doubles): the heuristic value of every row (once)."},
    {"scores", scores, METH_VARARGS,
     "scores(board, depth, threshold) -> the expected value of each of the four moves\n"
     "(None where a move changes nothing), or None when a 65536 could be made."},
    {"moves", moves, METH_O,
     "moves(board) -> the boards after left, right, up and down (None if one overflows)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_expectimax",
    "The 2048 solver's expectimax search for 4x4 boards, compiled (see solver.py).", -1,
    methods,
};

PyMODINIT_FUNC PyInit__expectimax(void) {
    build_rows();
    return PyModule_Create(&module);
}
