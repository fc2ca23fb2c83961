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
__attribute__((target("sse4.2"))) static uint32_t instruction(uint32_t value, const uint8_t *bytes, size_t count) {
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
