# data directives, expressions, alignment, .org, strings
	.text
start:	.byte	1, -1, 255, 'a, 'b', 0x7f
	.word	1, -2, 0xffff, start - end
	.long	start, end, end - start, 12345678
	.int	-1
	.quad	0x123456789abcdef0, -2
	.short	7
	.ascii	"abc\n\t\"\\\101\x42"
	.asciz	"z", "yy"
	.string	"s"
	.space	3
	.space	2, 0x55
	.skip	1
	.zero	2
	.fill	3, 2, 0x1234
	.align	2
	.byte	(1 + 2) * 3, 17 / 5, 17 % 5, 1 << 4, 0x80 >> 3
	.byte	6 & 3, 6 | 1, 6 ^ 3, ~1 & 0xff, -(-3)
	.long	1 + 2 * 3, (1 + 2) * 3, 10 - 4 - 3, 7 | 8 + 1
	.balign	8
	.p2align 2
	.align	4, 0xaa
	.byte	9
	.align	3, , 2
	.byte	10
	.align	2, 0, 1
	.org	0x90
	.byte	0x90
	.org	.+4, 0x33
sym = 5
	.set	sym2, sym * 2
	.equ	sym3, sym2 + 1
	.long	sym, sym2, sym3
	.word	. - start
	.globl	start
	.type	start, @function
	.size	start, 4
	.ident	"vasm corpus"
	movl	$sym3, %r1 ; movl $sym*20, %r2	# two statements
	movl	$'A, %r3
	/* a C comment */ nop
	/* a comment
	   over lines */ nop
end:	halt
	.data
	.long	1
	.align	3
d8:	.quad	d8
	.bss
b0:	.space	10
	.align	2
b1:	.skip	4
	.data
	.long	b0, b1
