# end.s: assembled last, so its .bss label marks the end of the kernel
# image; the system page table and the process slots follow it.
	.bss
	.align	9
	.globl	kend
kend:
