# Figures 1-7, 10, 11 and 11 at 4, 8 CPUs of `make bench` (scripts/bench runs this twice: PNG, SVG).
# gnuplot -e "dir='RESULTS'; term='pngcairo|svg'; ext='png|svg'" bench/plots.gp
# Data files (written by scripts/bench): one row per x (or per bar group),
# columns: x, ours median, min, max, upstream median, min, max.
# Points / bars are medians over the runs, error bars min..max.

out(n) = sprintf("%s/%s.%s", dir, n, ext)
f(n) = sprintf("%s/%s.dat", dir, n)
eval sprintf("set terminal %s size 900,560 font 'sans,10' noenhanced", term)
set grid ytics
set key top left
O = "ours (series)"
U = "upstream 6.12"
set style line 1 lc rgb "#1f77b4" lw 2 pt 7
set style line 2 lc rgb "#d62728" lw 2 pt 5

# 1: misses, one CPU
set output out("fig1")
set title "Figure 1: deadline misses on 1 CPU (icount), UUniFast sets, jobs use 80% of (runtime - 0.2 ms)"
set xlabel "total utilisation (reservations)"
set ylabel "jobs finishing after their deadline (sum over the sets)"
set yrange [0:*]
set offsets 0.02, 0.02, 1, 0
plot f("fig1") using ($1-0.004):2:3:4 with yerrorlines ls 1 title O, \
     ''        using ($1+0.004):5:6:7 with yerrorlines ls 2 title U
set offsets 0, 0, 0, 0

# 2: misses and tardiness, two CPUs, plain TCG (solid) and icount (dashed)
set output out("fig2")
set multiplot layout 1,2 title "Figure 2: 2 CPUs, global EDF, UUniFast sets; plain TCG (solid) and icount (dashed)"
set key top left
set style line 3 lc rgb "#1f77b4" lw 2 pt 6 dt 2
set style line 4 lc rgb "#d62728" lw 2 pt 4 dt 2
set title "miss ratio"
set xlabel "total utilisation (2 CPUs)"
set ylabel "missed jobs / jobs"
set yrange [0:1.4]
set ytics 0, 0.2, 1
set key top left
plot f("fig2-missratio") using ($1-0.01):2:3:4 with yerrorlines ls 1 title O." TCG", \
     ''                  using ($1+0.01):5:6:7 with yerrorlines ls 2 title U." TCG", \
     f("fig2i-missratio") using ($1-0.02):2:3:4 with yerrorlines ls 3 title O." icount", \
     ''                   using ($1+0.02):5:6:7 with yerrorlines ls 4 title U." icount"
set title "maximum tardiness (log scale)"
set ylabel "ms"
set logscale y
set yrange [*:*]
set ytics auto
plot f("fig2-tardiness") using ($1-0.01):($2+0.001):($3+0.001):($4+0.001) with yerrorlines ls 1 title O." TCG", \
     ''                  using ($1+0.01):($5+0.001):($6+0.001):($7+0.001) with yerrorlines ls 2 title U." TCG", \
     f("fig2i-tardiness") using ($1-0.02):($2+0.001):($3+0.001):($4+0.001) with yerrorlines ls 3 title O." icount", \
     ''                   using ($1+0.02):($5+0.001):($6+0.001):($7+0.001) with yerrorlines ls 4 title U." icount"
unset logscale y
unset multiplot

# bar charts
set style data histograms
set style histogram errorbars gap 2 lw 1
set style fill solid 0.8 border -1
set boxwidth 0.9
unset xlabel
set key top left

set output out("fig3")
set title "Figure 3: context switch between two tasks on 1 CPU (futex ping-pong, icount)"
set ylabel "CPU ns per switch"
plot f("fig3") using 2:3:4:xtic(1) ls 1 title O, '' using 5:6:7 ls 2 title U

set output out("fig5")
set title "Figure 5: wake-up latency of periodic deadline threads, 1 CPU (icount)"
set ylabel "microseconds (log scale)"
set logscale y
set yrange [*:*]
plot f("fig5") using 2:3:4:xtic(1) ls 1 title O, '' using 5:6:7 ls 2 title U
unset logscale y

set output out("fig6")
set title "Figure 6: sched_setattr into and out of SCHED_DEADLINE, 1 CPU (icount)"
set ylabel "pairs (in + out) per second of guest time"
set yrange [0:*]
plot f("fig6") using 2:3:4:xtic(1) ls 1 title O, '' using 5:6:7 ls 2 title U

set output out("fig10")
set title "Figure 10: sched_setattr into and out of SCHED_DEADLINE on m CPUs (icount)"
set ylabel "pairs (in + out) per second of guest time"
set yrange [0:*]
plot f("fig10") using 2:3:4:xtic(1) ls 1 title O, '' using 5:6:7 ls 2 title U

set output out("fig7")
set title "Figure 7: isolation, 1 CPU (icount): CPU share"
set ylabel "share of the CPU"
set yrange [0:0.2]
plot f("fig7") using 2:3:4:xtic(1) ls 1 title O, '' using 5:6:7 ls 2 title U

# 4: scaling
set style data lines
set output out("fig4")
set multiplot layout 1,2 title "Figure 4: cost per operation with N deadline tasks queued, 1 CPU (icount)"
set logscale x 2
set xlabel "N queued deadline tasks"
set yrange [0:*]
set key bottom right
set title "futex wake-up + enqueue, per task"
set ylabel "ns"
plot f("fig4-wake") using 1:2:3:4 with yerrorlines ls 1 title O, \
     ''             using 1:5:6:7 with yerrorlines ls 2 title U
set title "switch A<->B (dequeue + pick + enqueue)"
plot f("fig4-switch") using 1:2:3:4 with yerrorlines ls 1 title O, \
     ''               using 1:5:6:7 with yerrorlines ls 2 title U
unset multiplot

# 11: pinned fraction, 2 CPUs plain TCG (scripts/bench writes fig11-*.dat:
# x = pinned fraction; admitted: then R1+R2 and the partitions, computed;
# tardiness: ours pinned, ours global, upstream pinned, upstream global;
# cost: bars per kind of call and m, icount).  A point upstream does not
# have (it refuses pinned tasks) is nan in the data and left out.
unset logscale x
set style data lines
set output out("fig11")
set multiplot layout 2,2 title "Figure 11: the same UUniFast sets (2 CPUs, U 1.0..1.75) with a fraction of their tasks pinned to one CPU"
set xlabel "fraction of each set's tasks pinned (worst-fit)"
set xrange [-0.05:1.05]
set xtics ("0" 0, "0.25" 0.25, "0.5" 0.5, "1" 1)
set style line 5 lc rgb "#555555" lw 1.5 pt 8 dt 3
set style line 6 lc rgb "#2ca02c" lw 1 pt 1 dt 4
set key right center
set title "task sets admitted whole (no sched_setattr refused)"
set ylabel "share of the sets"
set yrange [-0.05:1.1]
set ytics 0, 0.25, 1
plot f("fig11-admitted") using ($1-0.008):2:3:4 with yerrorlines ls 1 title O, \
     ''                  using ($1+0.008):5:6:7 with yerrorlines ls 2 title U, \
     ''                  using 1:8 with linespoints ls 6 title "R1+R2, computed", \
     ''                  using 1:9 with linespoints ls 5 title "cpuset partition per pinned CPU, computed"
set title "max tardiness, sets admitted whole, plain TCG (log scale)"
set ylabel "ms"
set logscale y
set yrange [*:*]
set ytics auto
set key bottom right
plot f("fig11-tardiness") using ($1-0.008):($2+0.001):($3+0.001):($4+0.001) with yerrorlines ls 1 title O." pinned", \
     ''                   using ($1-0.016):($5+0.001):($6+0.001):($7+0.001) with yerrorlines ls 3 title O." global", \
     ''                   using ($1+0.016):($11+0.001):($12+0.001):($13+0.001) with yerrorlines ls 4 title U." global"
unset logscale y
set title "migrations per job, sets admitted whole, plain TCG"
set ylabel "se.nr_migrations / jobs"
set yrange [0:*]
plot f("fig11-migr") using ($1-0.008):2:3:4 with yerrorlines ls 1 title O, \
     ''              using ($1+0.008):5:6:7 with yerrorlines ls 2 title U
set style data histograms
set style histogram errorbars gap 2 lw 1
set style fill solid 0.8 border -1
set xrange [*:*]
set xtics auto rotate by 30 right
unset xlabel
set key top left horizontal
set offsets 0, 0, graph 0.25, 0
set title "cost per call, icount (6.12 refuses pinned: no bar)"
set ylabel "ns per call"
plot f("fig11-cost") using 2:3:4:xtic(1) ls 1 title O, '' using 5:6:7 ls 2 title U
unset multiplot
set offsets 0, 0, 0, 0

# 11 at 4 and 8 CPUs, icount (fig11-4-*.dat, fig11-8-*.dat, columns as
# figure 11's): each m's own sets of 2m..3m tasks, U 0.5 m .. 0.875 m.
set style data lines
unset offsets
set output out("fig11x")
set multiplot layout 2,2 title "Figure 11 at 4 and 8 CPUs (icount): UUniFast sets of 2m..3m tasks, U 0.5m..0.875m, a fraction pinned"
set xlabel "fraction of each set's tasks pinned (worst-fit)"
set xrange [-0.05:1.05]
set xtics ("0" 0, "0.25" 0.25, "0.5" 0.5, "1" 1) norotate
do for [m in "4 8"] {
	unset logscale y
	set title sprintf("task sets admitted whole, %s CPUs", m)
	set ylabel "share of the sets"
	set yrange [-0.05:1.1]
	set ytics 0, 0.25, 1
	set key right center
	plot f("fig11-".m."-admitted") using ($1-0.008):2:3:4 with yerrorlines ls 1 title O, \
	     ''                        using ($1+0.008):5:6:7 with yerrorlines ls 2 title U, \
	     ''                        using 1:8 with linespoints ls 6 title "R1+R2, computed", \
	     ''                        using 1:9 with linespoints ls 5 title "cpuset partition per pinned CPU, computed"
	set title sprintf("max tardiness, %s CPUs (emulation-distorted, log)", m)
	set ylabel "ms"
	set logscale y
	set yrange [*:*]
	set ytics auto
	set key bottom right
	plot f("fig11-".m."-tardiness") using ($1-0.008):($2+0.001):($3+0.001):($4+0.001) with yerrorlines ls 1 title O." pinned", \
	     ''                         using ($1-0.016):($5+0.001):($6+0.001):($7+0.001) with yerrorlines ls 3 title O." global", \
	     ''                         using ($1+0.016):($11+0.001):($12+0.001):($13+0.001) with yerrorlines ls 4 title U." global"
}
unset multiplot
