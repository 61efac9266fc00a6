# mkdelta.pl DIRTY RECOVERED LOGOFF LOGBYTES > DELTA: the sectors of
# RECOVERED (a kernel's recovered copy of DIRTY) that differ from DIRTY,
# outside the log, as runs of at most 1 MiB: "xls-imgdelta 1 SIZE LOGOFF
# LOGBYTES", then per run "DADDR SECTORS" and the sectors, then "end".
# tests/lib/applydelta.pl patches a copy of DIRTY with it.
use strict; use warnings;
my ($fa, $fb, $logoff, $loglen) = @ARGV;
open(my $a, "<:raw", $fa) or die "$fa: $!\n";
open(my $b, "<:raw", $fb) or die "$fb: $!\n";
my $size = -s $fa;
die "sizes differ\n" if $size != -s $fb;
binmode STDOUT;
print "xls-imgdelta 1 $size $logoff $loglen\n";
my $chunk = 1 << 20;
my @run;		# [first daddr, sectors...]
my ($runs, $secs) = (0, 0);
my $flush = sub {
	return unless @run;
	my $d = shift @run;
	print "$d ", scalar(@run), "\n", @run;
	$runs++; $secs += @run;
	@run = ();
};
for (my $off = 0; $off < $size; $off += $chunk) {
	my $n = $size - $off < $chunk ? $size - $off : $chunk;
	sysseek($a, $off, 0); sysseek($b, $off, 0);
	my ($x, $y) = ("", "");
	sysread($a, $x, $n) == $n or die "$fa: short read\n";
	sysread($b, $y, $n) == $n or die "$fb: short read\n";
	if ($x eq $y) { $flush->(); next; }
	for (my $s = 0; $s < $n; $s += 512) {
		my $at = $off + $s;
		my $sec = substr($y, $s, 512);
		if (($at >= $logoff && $at < $logoff + $loglen) || substr($x, $s, 512) eq $sec) {
			$flush->();
		} else {
			push @run, $at / 512 unless @run;
			push @run, $sec;
			$flush->() if @run > 2048;	# runs of at most 1 MiB
		}
	}
}
$flush->();
print "end\n";
print STDERR "$runs runs, $secs sectors\n";
