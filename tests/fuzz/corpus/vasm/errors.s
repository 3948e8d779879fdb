label: movl %r0,
	.bogus 1
	brb nowhere
