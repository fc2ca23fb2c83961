#ifndef CCHECKSUM_H
#define CCHECKSUM_H

#include <stddef.h>
#include <stdint.h>

/// CRC-32C (Castagnoli) of `count` bytes at `bytes`, continuing from `crc`, the checksum of the bytes before them
/// (0 to start). The processor's CRC-32C instruction where it has one (SSE 4.2 on x86-64, the CRC extension on
/// AArch64), a slicing-by-8 table otherwise; the result is the same. See crc32c.c.
uint32_t wsd_crc32c(uint32_t crc, const void *bytes, size_t count);

/// Whether wsd_crc32c uses the processor's instruction (1) or the table (0), for the benchmarks and the tests.
int wsd_crc32c_is_hardware(void);

/// The table version of wsd_crc32c, whatever the processor has: what the tests compare the instruction with.
uint32_t wsd_crc32c_portable(uint32_t crc, const void *bytes, size_t count);

/// Checks the frames of `count` change journal records in `bytes` (see JournalFraming): `payloads` holds each
/// record's payload as a pair of offsets (start, end) into `bytes`, the record's 4 bytes of length and 4 of checksum
/// (both little-endian) right before its start. Returns the index of the first record whose checksum, CRC-32C of
/// its length's bytes and its payload, is not the one it holds, or `count` when every one is. With the instruction,
/// three records at a time, as fast as three times one.
size_t wsd_crc32c_first_bad_record(const void *bytes, const int64_t *payloads, size_t count);

/// SHA-256's compression of `count` whole 64-byte blocks at `blocks` into `state` (the eight words of the hash so
/// far): by the processor's SHA extensions when it has them and `use_instructions` is not 0, in portable C otherwise.
/// Returns 1 when the instructions compressed, 0 when the portable code did; the result is the same. See sha256.c.
int wsd_sha256_compress(uint32_t state[8], const void *blocks, size_t count, int use_instructions);

#endif
