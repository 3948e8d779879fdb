	.text
1:	movf $0f1.5,%r0
	movd $-0d3.3e-30,(%r1)+
	movg $0g1e300,r2
	movh $0h-0.1e-100,%r3
	movh s`$0h1.5,%r4
	movo $0x0123456789abcdef0123456789abcdef,%r5
	movo $-1,(%r6)
	movl $0f2.5,%r0
	acbf $0f100,$0f0.5,%r1,1b
	jacbh $0h100,$0h1,%r1,1b
	emodd $0d0.5,$3,$0d10,%r0,%r2
	addp6 $4,(%r1),$5,(%r2),$6,(%r3)
	editpc $7,(%r1),(%r2),(%r3)
	cvtlp $12345,$31,(%r3)
	.data
	.float 1.5, 0f-2e-3, 0x10, 0f:40c0
	.double 0d:4000000000000080, 1e38
	.gfloat 3.3
	.hfloat 1e-4000, 5.9486574767861588e4931
	.octa -2, 0x1ff
