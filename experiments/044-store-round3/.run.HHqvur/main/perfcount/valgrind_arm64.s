#include "textflag.h"

// func clientRequest(args *[6]uintptr, def uintptr) uintptr
//
// Valgrind's client request for arm64-linux: X4 points at the request
// words, X3 holds the default; the preamble rotates X12 by 3, 13, 51 and 61
// (a no-op), and orr x10,x10,x10 marks the request. The result is in X3.
TEXT ·clientRequest(SB), NOSPLIT, $0-24
	MOVD args+0(FP), R4
	MOVD def+8(FP), R3
	WORD $0x93cc0d8c // ror x12, x12, #3
	WORD $0x93cc358c // ror x12, x12, #13
	WORD $0x93cccd8c // ror x12, x12, #51
	WORD $0x93ccf58c // ror x12, x12, #61
	WORD $0xaa0a014a // orr x10, x10, x10
	MOVD R3, ret+16(FP)
	RET
