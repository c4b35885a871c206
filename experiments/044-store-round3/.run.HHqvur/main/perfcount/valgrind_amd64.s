#include "textflag.h"

// func clientRequest(args *[6]uintptr, def uintptr) uintptr
//
// Valgrind's client request: the "special instruction preamble" (four
// rotations of RDI that add up to a no-op) followed by xchg %rbx,%rbx. On a
// real CPU it does nothing and returns def; under valgrind the tool reads the
// request from the words at args and returns its answer in RDX. The bytes
// must be exactly these, so they are written out (valgrind.h, amd64-linux).
TEXT ·clientRequest(SB), NOSPLIT, $0-24
	MOVQ args+0(FP), AX
	MOVQ def+8(FP), DX
	BYTE $0x48; BYTE $0xc1; BYTE $0xc7; BYTE $0x03 // rolq $3,  %rdi
	BYTE $0x48; BYTE $0xc1; BYTE $0xc7; BYTE $0x0d // rolq $13, %rdi
	BYTE $0x48; BYTE $0xc1; BYTE $0xc7; BYTE $0x3d // rolq $61, %rdi
	BYTE $0x48; BYTE $0xc1; BYTE $0xc7; BYTE $0x33 // rolq $51, %rdi
	BYTE $0x48; BYTE $0x87; BYTE $0xdb             // xchgq %rbx, %rbx
	MOVQ DX, ret+16(FP)
	RET
