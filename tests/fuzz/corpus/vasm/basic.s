	.text
	.globl _start
_start:
	movl $0x12345678,%r2
	movl (%r0)[%r1],%r2
	brb _start
	getdata: .long 1,2,3
	.data
d:	.word 5
	.bss
	.lcomm buf,64
