# Figure 8: the schedule of bench/sched8's five tasks on 2 CPUs, from a
# sched_switch trace (scripts/bench writes the data).
# gnuplot -e "dir='RESULTS'; term='pngcairo|svg'; ext='png|svg'; kernel='series|upstream'; fig='fig8|fig8i'" bench/schedule.gp
# (fig8: the plain-TCG boot, fig8i: the 2-CPU icount boot)
# FIG-KERNEL-segs.dat:  cpu start_ms end_ms task   (a task on a CPU)
# FIG-KERNEL-marks.dat: task release_ms deadline_ms (one per job)
# Rows "CPU 0/1": who ran where, one colour per task.  Rows "T0".."T4":
# the same runs per task, an up arrow at each release (the job's new
# deadline and full runtime: the replenishment) and a black down arrow
# at its absolute deadline.
eval sprintf("set terminal %s size 1400,520 font 'sans,10' noenhanced", term)
set output sprintf("%s/%s-%s.%s", dir, fig, kernel, ext)
segs = sprintf("%s/%s-%s-segs.dat", dir, fig, kernel)
marks = sprintf("%s/%s-%s-marks.dat", dir, fig, kernel)
name = (kernel eq "series") ? "ours (series)" : "upstream 6.12"
qm = (fig eq "fig8") ? "plain TCG" : "icount"
set title sprintf("Figure 8: EDF schedule on 2 CPUs, %s kernel (sched_switch trace, %s)", name, qm)
set linetype 1 lc rgb "#1f77b4"
set linetype 2 lc rgb "#ff7f0e"
set linetype 3 lc rgb "#2ca02c"
set linetype 4 lc rgb "#9467bd"
set linetype 5 lc rgb "#d62728"
ycpu(c) = 1 - c
ytask(t) = 7 - t
set ytics ("CPU 0" 1, "CPU 1" 0, "T0 3/10" 7, "T1 4/15" 6, "T2 6/20" 5, "T3 10/30" 4, \
           "T4 8/40 (needs 12)" 3)
set yrange [-0.7:7.8]
set xrange [0:200]
set xlabel "ms since the first release"
set grid xtics
set key outside right top
set style fill solid 1.0 noborder
plot segs using (($2+$3)/2):(ycpu($1)):2:3:(ycpu($1)-0.35):(ycpu($1)+0.35):($4+1) \
          with boxxyerror lc variable notitle, \
     segs using (($2+$3)/2):(ytask($4)):2:3:(ytask($4)-0.25):(ytask($4)+0.15):($4+1) \
          with boxxyerror lc variable notitle, \
     marks using 2:(ytask($1)-0.45):(0):(0.75):($1+1) with vectors head filled size 1,20 \
          lw 2 lc variable notitle, \
     marks using 3:(ytask($1)+0.45):(0):(-0.35) with vectors head filled size 1,20 \
          lw 1 lc rgb "black" notitle, \
     NaN with boxes lt 1 title "dl-T0", NaN with boxes lt 2 title "dl-T1", \
     NaN with boxes lt 3 title "dl-T2", NaN with boxes lt 4 title "dl-T3", \
     NaN with boxes lt 5 title "dl-T4", \
     NaN with vectors lw 2 lc rgb "gray30" title "release / replenish", \
     NaN with vectors lw 1 lc rgb "black" title "deadline"
