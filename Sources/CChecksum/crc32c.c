// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78) for the change journal's records and the history's files.
//
// The journal checks every record it reads, so a start after a crash and a read of the past check as many bytes as
// they replay. A byte-at-a-time table in Swift checked about 0.5 GB/s; the CRC-32C instruction of SSE 4.2 (x86-64)
// or of the AArch64 CRC extension checks 8 bytes per instruction. Both are chosen at run time, so that the binary
// runs on a processor without them, where a slicing-by-8 table (8 lookups per 8 bytes) is the fallback.

#include "CChecksum.h"

#include <pthread.h>
#include <string.h>

#if defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#ifndef HWCAP_CRC32
#define HWCAP_CRC32 (1 << 7)
#endif
#endif

static uint32_t table[8][256];
static pthread_once_t table_once = PTHREAD_ONCE_INIT;
static pthread_once_t detect_once = PTHREAD_ONCE_INIT;
static int hardware;

#define POLY 0x82F63B78u

// The product of two polynomials modulo the CRC's, both reflected as the CRC's register holds them (zlib's
// multmodp): what lets checksums of consecutive pieces, computed apart, be joined.
__attribute__((unused)) static uint32_t multiply_modulo(uint32_t a, uint32_t b) {
    uint32_t mask = (uint32_t)1 << 31;
    uint32_t product = 0;
    for (;;) {
        if (a & mask) {
            product ^= b;
            if ((a & (mask - 1)) == 0) break;
        }
        mask >>= 1;
        b = (b & 1) ? (b >> 1) ^ POLY : b >> 1;
    }
    return product;
}

// x^(8 * count) modulo the CRC's polynomial: multiplying a register by it is what running `count` zero bytes
// through the CRC does to it.
__attribute__((unused)) static uint32_t shift_operator(size_t count) {
    uint32_t power = (uint32_t)1 << 30;  // x^1
    uint32_t result = (uint32_t)1 << 31;  // x^0
    for (int bit = 0; bit < 3; bit++) power = multiply_modulo(power, power);  // x^8
    while (count) {
        if (count & 1) result = multiply_modulo(power, result);
        power = multiply_modulo(power, power);
        count >>= 1;
    }
    return result;
}

static uint32_t load_le32(const uint8_t *bytes) {
    return (uint32_t)bytes[0] | (uint32_t)bytes[1] << 8 | (uint32_t)bytes[2] << 16 | (uint32_t)bytes[3] << 24;
}

static void make_table(void) {
    for (uint32_t index = 0; index < 256; index++) {
        uint32_t value = index;
        for (int bit = 0; bit < 8; bit++) value = (value & 1) ? (value >> 1) ^ 0x82F63B78u : value >> 1;
        table[0][index] = value;
    }
    for (uint32_t index = 0; index < 256; index++) {
        for (int slice = 1; slice < 8; slice++) {
            uint32_t previous = table[slice - 1][index];
            table[slice][index] = (previous >> 8) ^ table[0][previous & 0xff];
        }
    }
}

static uint32_t portable(uint32_t value, const uint8_t *bytes, size_t count) {
    pthread_once(&table_once, make_table);
    while (count >= 8) {
        uint64_t word;
        memcpy(&word, bytes, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        word = __builtin_bswap64(word);
#endif
        word ^= value;
        value = table[7][word & 0xff] ^ table[6][(word >> 8) & 0xff] ^ table[5][(word >> 16) & 0xff]
            ^ table[4][(word >> 24) & 0xff] ^ table[3][(word >> 32) & 0xff] ^ table[2][(word >> 40) & 0xff]
            ^ table[1][(word >> 48) & 0xff] ^ table[0][word >> 56];
        bytes += 8;
        count -= 8;
    }
    while (count > 0) {
        value = table[0][(value ^ *bytes) & 0xff] ^ (value >> 8);
        bytes++;
        count--;
    }
    return value;
}

#if defined(__x86_64__)
// The instruction takes three cycles to give its result and can start one each cycle: three independent streams
// keep it busy, where one waits on itself. A large buffer is checked three blocks at a time, the three registers
// joined by the shift operator; short records, three records at a time (records_instruction).
#define BLOCK 4096
static uint32_t block_shift;
static pthread_once_t block_shift_once = PTHREAD_ONCE_INIT;
static void make_block_shift(void) { block_shift = shift_operator(BLOCK); }

__attribute__((target("sse4.2"))) static uint32_t instruction(uint32_t value, const uint8_t *bytes, size_t count) {
    if (count >= 3 * BLOCK) {
        pthread_once(&block_shift_once, make_block_shift);
        do {
            uint64_t first = value, second = 0, third = 0;
            for (size_t offset = 0; offset < BLOCK; offset += 8) {
                uint64_t a, b, c;
                memcpy(&a, bytes + offset, 8);
                memcpy(&b, bytes + BLOCK + offset, 8);
                memcpy(&c, bytes + 2 * BLOCK + offset, 8);
                first = __builtin_ia32_crc32di(first, a);
                second = __builtin_ia32_crc32di(second, b);
                third = __builtin_ia32_crc32di(third, c);
            }
            value = multiply_modulo(block_shift, (uint32_t)first) ^ (uint32_t)second;
            value = multiply_modulo(block_shift, value) ^ (uint32_t)third;
            bytes += 3 * BLOCK;
            count -= 3 * BLOCK;
        } while (count >= 3 * BLOCK);
    }
    uint64_t wide = value;
    while (count >= 8) {
        uint64_t word;
        memcpy(&word, bytes, 8);
        wide = __builtin_ia32_crc32di(wide, word);
        bytes += 8;
        count -= 8;
    }
    value = (uint32_t)wide;
    while (count > 0) {
        value = __builtin_ia32_crc32qi(value, *bytes);
        bytes++;
        count--;
    }
    return value;
}

// The register after a record's length (its frame's first 4 bytes, at `payload` - 8), from the start value.
__attribute__((target("sse4.2"))) static uint64_t record_start(const uint8_t *payload) {
    uint32_t length;
    memcpy(&length, payload - 8, 4);
    return __builtin_ia32_crc32si(0xFFFFFFFFu, length);
}

__attribute__((target("sse4.2"))) static size_t records_instruction(
    const uint8_t *bytes, const int64_t *payloads, size_t count) {
    size_t index = 0;
    for (; index + 3 <= count; index += 3) {
        const uint8_t *a = bytes + payloads[2 * index], *b = bytes + payloads[2 * index + 2],
                      *c = bytes + payloads[2 * index + 4];
        size_t na = (size_t)(payloads[2 * index + 1] - payloads[2 * index]);
        size_t nb = (size_t)(payloads[2 * index + 3] - payloads[2 * index + 2]);
        size_t nc = (size_t)(payloads[2 * index + 5] - payloads[2 * index + 4]);
        size_t common = na < nb ? na : nb;
        common = (common < nc ? common : nc) & ~(size_t)7;
        uint64_t ra = record_start(a), rb = record_start(b), rc = record_start(c);
        for (size_t offset = 0; offset < common; offset += 8) {
            uint64_t wa, wb, wc;
            memcpy(&wa, a + offset, 8);
            memcpy(&wb, b + offset, 8);
            memcpy(&wc, c + offset, 8);
            ra = __builtin_ia32_crc32di(ra, wa);
            rb = __builtin_ia32_crc32di(rb, wb);
            rc = __builtin_ia32_crc32di(rc, wc);
        }
        if (~instruction((uint32_t)ra, a + common, na - common) != load_le32(a - 4)) return index;
        if (~instruction((uint32_t)rb, b + common, nb - common) != load_le32(b - 4)) return index + 1;
        if (~instruction((uint32_t)rc, c + common, nc - common) != load_le32(c - 4)) return index + 2;
    }
    for (; index < count; index++) {
        const uint8_t *payload = bytes + payloads[2 * index];
        size_t length = (size_t)(payloads[2 * index + 1] - payloads[2 * index]);
        if (~instruction((uint32_t)record_start(payload), payload, length) != load_le32(payload - 4)) return index;
    }
    return count;
}

static int detect(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("sse4.2") ? 1 : 0;
}
#elif defined(__aarch64__) && defined(__linux__)
__attribute__((target("crc"))) static uint32_t instruction(uint32_t value, const uint8_t *bytes, size_t count) {
    while (count >= 8) {
        uint64_t word;
        memcpy(&word, bytes, 8);
        value = __builtin_arm_crc32cd(value, word);
        bytes += 8;
        count -= 8;
    }
    while (count > 0) {
        value = __builtin_arm_crc32cb(value, *bytes);
        bytes++;
        count--;
    }
    return value;
}

static int detect(void) { return (getauxval(AT_HWCAP) & HWCAP_CRC32) ? 1 : 0; }
#else
static uint32_t instruction(uint32_t value, const uint8_t *bytes, size_t count) {
    return portable(value, bytes, count);
}

static int detect(void) { return 0; }
#endif

static void detect_once_body(void) { hardware = detect(); }

int wsd_crc32c_is_hardware(void) {
    pthread_once(&detect_once, detect_once_body);
    return hardware;
}

uint32_t wsd_crc32c(uint32_t crc, const void *bytes, size_t count) {
    uint32_t value = ~crc;
    value = wsd_crc32c_is_hardware() ? instruction(value, bytes, count) : portable(value, bytes, count);
    return ~value;
}

uint32_t wsd_crc32c_portable(uint32_t crc, const void *bytes, size_t count) {
    return ~portable(~crc, bytes, count);
}

size_t wsd_crc32c_first_bad_record(const void *bytes, const int64_t *payloads, size_t count) {
#if defined(__x86_64__)
    if (wsd_crc32c_is_hardware()) return records_instruction(bytes, payloads, count);
#endif
    const uint8_t *base = bytes;
    for (size_t index = 0; index < count; index++) {
        const uint8_t *payload = base + payloads[2 * index];
        size_t length = (size_t)(payloads[2 * index + 1] - payloads[2 * index]);
        uint32_t checksum = wsd_crc32c(wsd_crc32c(0, payload - 8, 4), payload, length);
        if (checksum != load_le32(payload - 4)) return index;
    }
    return count;
}
