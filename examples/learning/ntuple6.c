/*
 * A 4x6-tuple network that learns 4x4 2048, and an expectimax player over it: how far the
 * learned route goes on one core of this machine. See README.md, "Six-tuples".
 *
 *     cc -O3 -march=native -o ntuple6 ntuple6.c -lm
 *     ./ntuple6 train MINUTES OUT [SEED]      # CPU minutes; OUT.10, OUT.20, ... on the way
 *     ./ntuple6 play WEIGHTS GAMES DEPTH [STOP] [SEED]
 *
 * The value of an afterstate (the board after a slide, before the new tile) is the sum of 32
 * weights: four shapes of six cells (two 2x3 blocks and two L-shaped ones, after Wu et al.,
 * "Multi-stage temporal difference learning for 2048", 2014), each read in all eight
 * symmetries of the board. Learning is TD(0) on afterstates, backwards over each finished
 * game, with temporal coherence (Jaśkowski, "Mastering 2048 with delayed temporal coherence
 * learning...", 2016): each weight's step is |sum of its errors| / sum of |its errors|, so a
 * weight that is pushed both ways settles. Half the games restart from a board where an
 * earlier game first made a 4096 or more, so the late game is learned more often (after 50
 * CPU minutes greedy play made 16384 in 36% of its games with the restarts, 24% without).
 *
 * play: expectimax with the rewards along the way and the network's value at the horizon;
 * DEPTH counts moves, 1 is greedy. The deal is the game's (a 2 nine times in ten, on an empty
 * cell chosen evenly) from a generator of its own, not twofold's codes: this measures the
 * method, twofold's benchmarks measure twofold. The weights are 4 x 16^6 little-endian
 * floats, 268 MB: too big to ship, which is one reason twofold's solver is not this (yet).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef uint64_t board_t; /* cell (r, c) holds its exponent in the four bits at 4 * (4r + c) */

#define TABLE (1 << 24) /* 16^6 weights a shape */
#define SHAPES 4
#define WEIGHTS ((size_t)SHAPES * TABLE)
#define LONGEST 400000 /* moves a game can last: far beyond a 65536 */

static uint16_t row_left[65536], row_right[65536];
static int gain_left[65536], gain_right[65536];
static float *weight, *errors, *magnitudes; /* the last two only while learning */
static uint64_t state = 0x9E3779B97F4A7C15ULL;

static uint64_t next(void) { /* xorshift64 */
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}

static double cpu(void) { return (double)clock() / CLOCKS_PER_SEC; }

/* -- the slide ------------------------------------------------------------------------- */
/* (as in variants/classic2048/_expectimax.c, written again so that this builds with cc alone) */

static uint16_t slide(const unsigned cells[4], int *gain) {
    unsigned out[4] = {0, 0, 0, 0};
    int length = 0, merged = 0;
    *gain = 0;
    for (int i = 0; i < 4; i++) {
        if (!cells[i]) continue;
        if (length && out[length - 1] == cells[i] && !merged && cells[i] < 15) {
            out[length - 1]++;
            *gain += 1 << out[length - 1];
            merged = 1;
        } else {
            out[length++] = cells[i];
            merged = 0;
        }
    }
    return (uint16_t)(out[0] | out[1] << 4 | out[2] << 8 | out[3] << 12);
}

static void build_rows(void) {
    for (unsigned row = 0; row < 65536; row++) {
        unsigned cells[4], back[4];
        for (int i = 0; i < 4; i++) back[3 - i] = cells[i] = (row >> (4 * i)) & 15;
        row_left[row] = slide(cells, &gain_left[row]);
        uint16_t r = slide(back, &gain_right[row]);
        row_right[row] = (uint16_t)((r >> 12) | ((r >> 4) & 0xF0) | ((r << 4) & 0xF00) | (r << 12));
    }
}

static board_t transpose(board_t x) {
    board_t a = (x & 0xF0F00F0FF0F00F0FULL) | ((x & 0x0000F0F00000F0F0ULL) << 12) |
                ((x & 0x0F0F00000F0F0000ULL) >> 12);
    return (a & 0xFF00FF0000FF00FFULL) | ((a & 0x00FF00FF00000000ULL) >> 24) |
           ((a & 0x00000000FF00FF00ULL) << 24);
}

static board_t rows(board_t b, const uint16_t *table) {
    return (board_t)table[b & 0xFFFF] | (board_t)table[(b >> 16) & 0xFFFF] << 16 |
           (board_t)table[(b >> 32) & 0xFFFF] << 32 | (board_t)table[b >> 48] << 48;
}

static int gains(board_t b, const int *table) {
    return table[b & 0xFFFF] + table[(b >> 16) & 0xFFFF] + table[(b >> 32) & 0xFFFF] +
           table[b >> 48];
}

/* The board after a move (0 left, 1 right, 2 up, 3 down), and the score it makes. */
static board_t move(board_t b, int direction, int *reward) {
    board_t t = direction >= 2 ? transpose(b) : b;
    const uint16_t *table = direction & 1 ? row_right : row_left;
    *reward = gains(t, direction & 1 ? gain_right : gain_left);
    board_t moved = rows(t, table);
    return direction >= 2 ? transpose(moved) : moved;
}

static board_t spawn(board_t b) {
    int empty[16], count = 0;
    for (int i = 0; i < 16; i++)
        if (!((b >> (4 * i)) & 15)) empty[count++] = i;
    int cell = empty[next() % count];
    return b | (board_t)(next() % 10 ? 1 : 2) << (4 * cell);
}

static int largest(board_t b) {
    int top = 0;
    for (; b; b >>= 4)
        if ((int)(b & 15) > top) top = (int)(b & 15);
    return top;
}

/* -- the network ------------------------------------------------------------------------ */

static board_t mirror(board_t b) { /* each row read right to left */
    b = ((b & 0x0F0F0F0F0F0F0F0FULL) << 4) | ((b >> 4) & 0x0F0F0F0F0F0F0F0FULL);
    return ((b & 0x00FF00FF00FF00FFULL) << 8) | ((b >> 8) & 0x00FF00FF00FF00FFULL);
}

static board_t flip(board_t b) { /* the rows bottom to top */
    b = ((b & 0x0000FFFF0000FFFFULL) << 16) | ((b >> 16) & 0x0000FFFF0000FFFFULL);
    return (b << 32) | (b >> 32);
}

/* The 32 weights a board reads: four shapes in each of its eight symmetries. The shapes are
   cells 0-5 and 4-9 (rows 0-1 and 1-2, a 2x3 block each) and {0,1,2,4,5,6}, {4,5,6,8,9,10}. */
static void features(board_t b, size_t out[32]) {
    board_t seen[8], t = transpose(b);
    seen[0] = b, seen[1] = mirror(b), seen[2] = flip(b), seen[3] = mirror(seen[2]);
    seen[4] = t, seen[5] = mirror(t), seen[6] = flip(t), seen[7] = mirror(seen[6]);
    for (int i = 0; i < 8; i++) {
        board_t s = seen[i];
        out[4 * i] = s & 0xFFFFFF;
        out[4 * i + 1] = TABLE + ((s >> 16) & 0xFFFFFF);
        out[4 * i + 2] = 2 * (size_t)TABLE + ((s & 0xFFF) | ((s >> 16) & 0xFFF) << 12);
        out[4 * i + 3] = 3 * (size_t)TABLE + (((s >> 16) & 0xFFF) | ((s >> 32) & 0xFFF) << 12);
    }
}

static double sum(const size_t at[32]) {
    double total = 0.0;
    for (int i = 0; i < 32; i++) total += weight[at[i]];
    return total;
}

static double value(board_t b) {
    size_t at[32];
    features(b, at);
    return sum(at);
}

/* Pull the value of the board whose features these are by error, each weight by its
   temporal-coherence share. */
static void learn(const size_t at[32], double error) {
    float step = (float)(error / 32);
    for (int i = 0; i < 32; i++) {
        size_t k = at[i];
        float rate = magnitudes[k] > 0 ? fabsf(errors[k]) / magnitudes[k] : 1.0f;
        weight[k] += rate * step;
        errors[k] += step;
        magnitudes[k] += fabsf(step);
    }
}

/* The move whose reward plus afterstate value is highest (-1 if none moves), and that sum. */
static int greedy(board_t b, board_t *after, int *reward, double *worth) {
    int chosen = -1;
    double top = 0.0;
    for (int d = 0; d < 4; d++) {
        int r;
        board_t a = move(b, d, &r);
        if (a == b) continue;
        double v = r + value(a);
        if (chosen < 0 || v > top) chosen = d, top = v, *after = a, *reward = r;
    }
    *worth = top;
    return chosen;
}

static int save(const char *path) {
    FILE *out = fopen(path, "wb");
    if (!out || fwrite(weight, sizeof(float), WEIGHTS, out) != WEIGHTS || fclose(out)) {
        fprintf(stderr, "cannot write %s\n", path);
        return 0;
    }
    return 1;
}

static int train(double minutes, const char *out) {
    static board_t path[LONGEST];
    static int rewards[LONGEST];
    static board_t kept[1 << 16]; /* boards where a game first made 4096, 8192, ... */
    long kept_count = 0, games = 0, moves = 0, block = 0, reached[16] = {0};
    double started = cpu(), report = 60.0, block_score = 0.0;
    errors = calloc(WEIGHTS, sizeof(float));
    magnitudes = calloc(WEIGHTS, sizeof(float));
    if (!errors || !magnitudes) return fprintf(stderr, "out of memory\n"), 1;
    while (cpu() - started < 60 * minutes) {
        board_t b = spawn(spawn(0));
        int restarted = kept_count > 100 && next() % 2;
        if (restarted) b = kept[next() % (kept_count < (1 << 16) ? kept_count : (1 << 16))];
        int n = 0, top = largest(b);
        long score = 0;
        board_t after;
        int reward;
        double worth;
        while (n < LONGEST && greedy(b, &after, &reward, &worth) >= 0) {
            path[n] = after, rewards[n++] = reward, score += reward;
            b = spawn(after);
            int now = largest(b);
            if (now > top && now >= 12) kept[kept_count++ & 0xFFFF] = b;
            if (now > top) top = now;
        }
        /* backwards: the last afterstate towards 0, each earlier one towards r' + V(s''), where
           V(s'') is the value just learned, so a game's end reaches its start in one pass */
        double target = 0.0;
        for (int t = n - 1; t >= 0; t--) {
            size_t at[32];
            features(path[t], at);
            learn(at, target - sum(at));
            target = rewards[t] + sum(at);
        }
        moves += n;
        if (restarted) continue; /* learned from, not counted: it did not start empty */
        games++, block++, block_score += score, reached[top]++;
        if (cpu() - started >= report) {
            long at_least[16] = {0};
            for (int e = 15; e >= 0; e--) at_least[e] = reached[e] + (e < 15 ? at_least[e + 1] : 0);
            printf("%4.0f min: %ld games; the last %ld: mean %.0f, 2048 %.1f%%, 8192 %.1f%%, "
                   "16384 %.1f%%, 32768 %.1f%%; %.0f moves/s\n",
                   report / 60, games, block, block_score / block, 100.0 * at_least[11] / block,
                   100.0 * at_least[13] / block, 100.0 * at_least[14] / block,
                   100.0 * at_least[15] / block, moves / (cpu() - started));
            fflush(stdout);
            if ((long)(report / 60) % 10 == 0) {
                char name[4096];
                snprintf(name, sizeof name, "%s.%ld", out, (long)(report / 60));
                if (!save(name)) return 1;
            }
            report += 60.0, block = 0, block_score = 0.0;
            memset(reached, 0, sizeof reached);
        }
    }
    return save(out) ? 0 : 1;
}

/* -- the player: expectimax over the network ------------------------------------------------ */

#define PRUNE 1e-4 /* a branch less likely than this is valued by the network */
#define CACHE (1 << 22)

typedef struct {
    board_t board;
    int depth, search;
    double value;
} Entry;

static Entry *cache;
static int search_number;

static double best(board_t b, int depth, double probability);

/* An afterstate's expected worth: every new tile, then the best move, depth moves in all. */
static double chance(board_t a, int depth, double probability) {
    if (depth == 0 || probability < PRUNE) return value(a);
    board_t h = a ^ a >> 29;
    h *= 0xBF58476D1CE4E5B9ULL;
    Entry *known = &cache[(h ^ h >> 32) & (CACHE - 1)];
    if (known->search == search_number && known->board == a && known->depth >= depth)
        return known->value;
    int empty = 0;
    double total = 0.0;
    for (int i = 0; i < 16; i++) empty += !((a >> (4 * i)) & 15);
    for (int i = 0; i < 16; i++) {
        if ((a >> (4 * i)) & 15) continue;
        total += 0.9 * best(a | (board_t)1 << (4 * i), depth, probability * 0.9 / empty);
        total += 0.1 * best(a | (board_t)2 << (4 * i), depth, probability * 0.1 / empty);
    }
    *known = (Entry){a, depth, search_number, total / empty};
    return total / empty;
}

static double best(board_t b, int depth, double probability) {
    double top = 0.0; /* no move left: the game is over and scores nothing more */
    for (int d = 0; d < 4; d++) {
        int r;
        board_t a = move(b, d, &r);
        if (a == b) continue;
        double v = r + chance(a, depth - 1, probability);
        if (v > top) top = v;
    }
    return top;
}

static int choose(board_t b, int depth) {
    int chosen = -1;
    double top = 0.0;
    search_number++;
    for (int d = 0; d < 4; d++) {
        int r;
        board_t a = move(b, d, &r);
        if (a == b) continue;
        double v = r + chance(a, depth - 1, 1.0);
        if (chosen < 0 || v > top) chosen = d, top = v;
    }
    return chosen;
}

static int play(int games, int depth, int stop) {
    long reached[16] = {0}, all_moves = 0;
    double started = cpu(), total = 0.0;
    cache = calloc(CACHE, sizeof(Entry));
    if (!cache) return fprintf(stderr, "out of memory\n"), 1;
    for (int g = 0; g < games; g++) {
        double begun = cpu();
        board_t b = spawn(spawn(0));
        long score = 0, moves = 0;
        int d, r;
        while ((!stop || 1 << largest(b) < stop) && (d = choose(b, depth)) >= 0) {
            b = spawn(move(b, d, &r));
            score += r, moves++;
        }
        reached[largest(b)]++, total += score, all_moves += moves;
        printf("game %d: %d, score %ld, %ld moves, %.1f moves/s\n", g, 1 << largest(b), score,
               moves, moves / (cpu() - begun + 1e-9));
        fflush(stdout);
    }
    printf("%d games, depth %d: mean score %.0f, %.1f moves/s; reached", games, depth,
           total / games, all_moves / (cpu() - started));
    long at_least = 0;
    for (int e = 15; e >= 11; e--) printf(" %d: %ld", 1 << e, at_least += reached[e]);
    printf("\n");
    return 0;
}

/* -- the same network on twofold's batched 2048 (learn.py) ---------------------------------- */
/* Built as a library (cc -shared -fPIC -DNTUPLE6_LIBRARY); learn.py owns the arrays. Learning
   here is online, forward: each game's last afterstate is pulled towards the reward plus value
   of the move after it as that move is chosen, one game after another through the batch, so it
   is Szubert and Jaśkowski's TD(0) on afterstates, games interleaved, with the coherence above. */

/* Use these weights (4 x 16^6 floats) and, to learn, these running errors and magnitudes of the
   same size (NULL: play only). */
void ntuple6_bind(float *weights, float *running_errors, float *running_magnitudes) {
    build_rows();
    weight = weights, errors = running_errors, magnitudes = running_magnitudes;
}

/* For each of count games (16 exponents each, row by row): the best move (-1 where none is
   left) and the score it makes. When learning, first pull the afterstate that game left last
   (left[i], where known[i]) towards that score plus the new afterstate's value, or towards 0
   where the game is over; then keep the new afterstate. */
void ntuple6_act(long count, const uint8_t *cells, int learning, int64_t *moves, int64_t *scores,
                 uint64_t *left, uint8_t *known) {
    for (long i = 0; i < count; i++) {
        board_t b = 0;
        for (int k = 0; k < 16; k++) {
            unsigned e = cells[16 * i + k];
            b |= (board_t)(e < 15 ? e : 15) << (4 * k); /* 32768 is as far as four bits go */
        }
        board_t after = 0;
        int reward = 0;
        double worth = 0.0;
        int d = greedy(b, &after, &reward, &worth);
        if (learning && known[i]) {
            size_t at[32];
            features(left[i], at);
            learn(at, (d >= 0 ? worth : 0.0) - sum(at));
        }
        moves[i] = d, scores[i] = d >= 0 ? reward : 0;
        left[i] = after, known[i] = d >= 0;
    }
}

#ifndef NTUPLE6_LIBRARY
int main(int argc, char **argv) {
    if (argc < 4 || (strcmp(argv[1], "train") && strcmp(argv[1], "play")) ||
        (!strcmp(argv[1], "play") && argc < 5)) {
        fprintf(stderr, "usage: %s train MINUTES OUT [SEED] | play WEIGHTS GAMES DEPTH [STOP] [SEED]\n",
                argv[0]);
        return 2;
    }
    build_rows();
    weight = calloc(WEIGHTS, sizeof(float));
    if (!weight) return fprintf(stderr, "out of memory\n"), 1;
    if (!strcmp(argv[1], "train")) {
        state ^= argc > 4 ? strtoull(argv[4], NULL, 10) * 0xBF58476D1CE4E5B9ULL : 0;
        return train(atof(argv[2]), argv[3]);
    }
    FILE *in = fopen(argv[2], "rb");
    if (!in || fread(weight, sizeof(float), WEIGHTS, in) != WEIGHTS) {
        fprintf(stderr, "%s is not a file of %zu weights\n", argv[2], WEIGHTS);
        return 1;
    }
    fclose(in);
    state ^= argc > 6 ? strtoull(argv[6], NULL, 10) * 0xBF58476D1CE4E5B9ULL : 0;
    return play(atoi(argv[3]), atoi(argv[4]), argc > 5 ? atoi(argv[5]) : 0);
}
#endif
