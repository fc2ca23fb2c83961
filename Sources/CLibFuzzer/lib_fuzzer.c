// The header declares libFuzzer's driver for Swift; nothing is defined here (a C target needs one source file).
#include "CLibFuzzer.h"
