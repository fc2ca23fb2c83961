// SHA-256's compression of whole 64-byte blocks (FIPS 180-4), for StateStore's SHA256Digest: the identities the
// history manifest records for every file it keeps, which a first start with history computes for the state file.
// By the x86-64 SHA extensions (SHA-NI) where the processor has them, chosen at run time: two rounds per
// SHA256RNDS2, the message schedule by SHA256MSG1 and SHA256MSG2, as Intel describes them. Portable C otherwise.

#include "CChecksum.h"

#include <pthread.h>

/// The round constants: the first 32 bits of the fractional parts of the cube roots of the first 64 primes.
static const uint32_t round_constants[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static inline uint32_t rotate_right(uint32_t value, unsigned count) {
    return (value >> count) | (value << (32 - count));
}

static void portable(uint32_t state[8], const uint8_t *data, size_t blocks) {
    uint32_t schedule[64];
    for (; blocks > 0; blocks--, data += 64) {
        for (int index = 0; index < 16; index++) {
            const uint8_t *word = data + 4 * index;
            schedule[index] = (uint32_t)word[0] << 24 | (uint32_t)word[1] << 16 | (uint32_t)word[2] << 8 | word[3];
        }
        for (int index = 16; index < 64; index++) {
            uint32_t early = schedule[index - 15], late = schedule[index - 2];
            uint32_t sigma0 = rotate_right(early, 7) ^ rotate_right(early, 18) ^ (early >> 3);
            uint32_t sigma1 = rotate_right(late, 17) ^ rotate_right(late, 19) ^ (late >> 10);
            schedule[index] = schedule[index - 16] + sigma0 + schedule[index - 7] + sigma1;
        }
        uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
        uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
        for (int index = 0; index < 64; index++) {
            uint32_t sum1 = rotate_right(e, 6) ^ rotate_right(e, 11) ^ rotate_right(e, 25);
            uint32_t choice = (e & f) ^ (~e & g);
            uint32_t temp1 = h + sum1 + choice + round_constants[index] + schedule[index];
            uint32_t sum0 = rotate_right(a, 2) ^ rotate_right(a, 13) ^ rotate_right(a, 22);
            uint32_t majority = (a & b) ^ (a & c) ^ (b & c);
            uint32_t temp2 = sum0 + majority;
            h = g;
            g = f;
            f = e;
            e = d + temp1;
            d = c;
            c = b;
            b = a;
            a = temp1 + temp2;
        }
        state[0] += a;
        state[1] += b;
        state[2] += c;
        state[3] += d;
        state[4] += e;
        state[5] += f;
        state[6] += g;
        state[7] += h;
    }
}

#if defined(__x86_64__)
#include <immintrin.h>

__attribute__((target("sha,sse4.1,ssse3"))) static void compress(uint32_t state[8], const uint8_t *data,
                                                                  size_t blocks) {
    // Each 32-bit word of the message is big-endian.
    const __m128i byte_swap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
    // The instructions keep the state as ABEF and CDGH.
    __m128i cdab = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&state[0]), 0xB1);
    __m128i efgh = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&state[4]), 0x1B);
    __m128i abef = _mm_alignr_epi8(cdab, efgh, 8);
    __m128i cdgh = _mm_blend_epi16(efgh, cdab, 0xF0);
    for (; blocks > 0; blocks--, data += 64) {
        const __m128i abef_before = abef, cdgh_before = cdgh;
        __m128i words[4];
        for (int index = 0; index < 4; index++) {
            words[index] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 16 * index)), byte_swap);
        }
        // Sixteen groups of four rounds; the schedule of a later group's words is made while the rounds run.
        for (int group = 0; group < 16; group++) {
            __m128i message = _mm_add_epi32(
                words[group & 3], _mm_loadu_si128((const __m128i *)&round_constants[4 * group]));
            cdgh = _mm_sha256rnds2_epu32(cdgh, abef, message);
            if (group >= 3 && group <= 14) {
                __m128i carried = _mm_alignr_epi8(words[group & 3], words[(group - 1) & 3], 4);
                words[(group + 1) & 3] = _mm_add_epi32(words[(group + 1) & 3], carried);
                words[(group + 1) & 3] = _mm_sha256msg2_epu32(words[(group + 1) & 3], words[group & 3]);
            }
            message = _mm_shuffle_epi32(message, 0x0E);
            abef = _mm_sha256rnds2_epu32(abef, cdgh, message);
            if (group >= 1 && group <= 12) {
                words[(group - 1) & 3] = _mm_sha256msg1_epu32(words[(group - 1) & 3], words[group & 3]);
            }
        }
        abef = _mm_add_epi32(abef, abef_before);
        cdgh = _mm_add_epi32(cdgh, cdgh_before);
    }
    // Back to ABCD and EFGH.
    __m128i feba = _mm_shuffle_epi32(abef, 0x1B);
    __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
    _mm_storeu_si128((__m128i *)&state[0], _mm_blend_epi16(feba, dchg, 0xF0));
    _mm_storeu_si128((__m128i *)&state[4], _mm_alignr_epi8(dchg, feba, 8));
}

static int detect(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("sha") && __builtin_cpu_supports("sse4.1") && __builtin_cpu_supports("ssse3");
}
#else
static void compress(uint32_t state[8], const uint8_t *data, size_t blocks) {
    (void)state;
    (void)data;
    (void)blocks;
}

static int detect(void) { return 0; }
#endif

static pthread_once_t detect_once = PTHREAD_ONCE_INIT;
static int hardware;

static void detect_once_body(void) { hardware = detect(); }

int wsd_sha256_compress(uint32_t state[8], const void *blocks, size_t count, int use_instructions) {
    pthread_once(&detect_once, detect_once_body);
    if (hardware && use_instructions) {
        compress(state, (const uint8_t *)blocks, count);
        return 1;
    }
    portable(state, (const uint8_t *)blocks, count);
    return 0;
}
