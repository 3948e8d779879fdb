/* SVG plots of service-time histograms (spamctl_svg.h). */
#include "cli/spamctl_svg.h"

#include <inttypes.h>

/* With --linear W:N, as the paper's Figure 4 draws IPL 12's service
 * times: per group, the share of its events (y, percent) in each W us bin
 * of inclusive service time (x, microseconds), the last bin open. */
static void write_svg_linear(FILE *f, const struct svg_hist *hs, size_t nk)
{
    const int W = 760, rowh = 260, x0 = 60, plotw = 660, ploth = 180;
    size_t n = nk > 12 ? 12 : nk;
    uint64_t nb = hs[0].lin_n + 1, lin_w = hs[0].lin_w;
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%zu\" "
               "font-family=\"sans-serif\" font-size=\"11\">\n", W, n * rowh + 10);
    for (size_t r = 0; r < n; r++) {
        const struct svg_hist *g = &hs[r];
        uint64_t total = g->incl->count ? g->incl->count : 1, top = 1;
        for (uint64_t b = 0; b < nb; b++)
            top = g->lin[b] > top ? g->lin[b] : top;
        /* the tallest bar leaves room above it for its count: the axis
         * reaches 20 px higher, ymax percent */
        const int barh = ploth - 20;
        double ymax = 100.0 * (double)top / (double)total * ploth / barh;
        int y0 = (int)(r * rowh) + 20, base = y0 + 20 + ploth;
        fputs("<text x=\"10\" y=\"", f);
        fprintf(f, "%d\">", y0);
        for (const char *c = g->name; *c; c++)
            fputs(*c == '<' ? "&lt;" : *c == '>' ? "&gt;" : *c == '&' ? "&amp;" : (char[2]){*c, 0}, f);
        fprintf(f, ": inclusive service time, %" PRIu64 " events, bins of %" PRIu64 " us, p50 %" PRIu64
                   " us, p99 %" PRIu64 " us</text>\n",
                g->incl->count, lin_w, spam_hist_percentile(g->incl, 50), spam_hist_percentile(g->incl, 99));
        fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", x0, base, x0 + plotw, base);
        fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", x0, base, x0,
                base - ploth);
        /* the y axis: ticks and light grid lines at a round step (1, 2 or 5
         * times a power of ten) that gives at most six of them */
        double step = 1e-3;
        for (double p10 = 1e-3; ymax / step > 6; p10 *= 10)
            for (int m = 1; m <= 5 && (step = m * p10, ymax / step > 6); m += m == 1 ? 1 : 3)
                ;
        for (double t = step; t <= ymax * 1.0001; t += step) {
            int y = base - (int)((double)ploth * t / ymax + 0.5);
            fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#dddddd\"/>\n"
                       "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%g%%</text>\n",
                    x0, y, x0 + plotw, y, x0 - 4, y + 4, t);
        }
        fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">0</text>\n", x0 - 4, base + 4);
        double bw = (double)plotw / (double)nb;
        uint64_t every = nb > 10 ? (nb + 9) / 10 : 1;
        for (uint64_t b = 0; b < nb; b++) {
            int h = (int)((double)barh * (double)g->lin[b] / (double)top + 0.5);
            double bx = x0 + b * bw, cx = bx + bw / 2;
            fprintf(f, "<rect class=\"bin\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"#4a7ab5\">"
                       "<title>%" PRIu64 " us: %" PRIu64 "</title></rect>\n",
                    bx, base - h, bw > 2 ? bw - 1 : bw, h, b * lin_w, g->lin[b]);
            /* each bar's count above it (upright when it fits, else turned) */
            if (g->lin[b] && bw >= 16)
                fprintf(f, "<text x=\"%.1f\" y=\"%d\" font-size=\"9\" text-anchor=\"middle\">%" PRIu64 "</text>\n",
                        cx, base - h - 3, g->lin[b]);
            else if (g->lin[b] && bw >= 7)
                fprintf(f, "<text x=\"%.1f\" y=\"%d\" font-size=\"9\" transform=\"rotate(-90 %.1f %d)\">%"
                           PRIu64 "</text>\n", cx + 3, base - h - 3, cx + 3, base - h - 3, g->lin[b]);
            /* bin labels: every `every`th bin and the open last one, never two
             * that would run into each other */
            if ((b % every == 0 && (b + every / 2 < nb - 1 || every == 1)) || b == nb - 1)
                fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s%" PRIu64 "</text>\n",
                        cx, base + 14, b == nb - 1 ? "&#8805;" : "", b * lin_w);
        }
        fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">service time (us)</text>\n", x0 + plotw / 2,
                base + 30);
        fprintf(f, "<text x=\"14\" y=\"%d\" transform=\"rotate(-90 14 %d)\" text-anchor=\"middle\">"
                   "%% of events</text>\n", base - ploth / 2, base - ploth / 2);
    }
    fprintf(f, "</svg>\n");
}

void svg_write(FILE *f, const struct svg_hist *hs, size_t nk)
{
    if (nk && hs[0].lin) {
        write_svg_linear(f, hs, nk);
        return;
    }
    const int W = 720, rowh = 180;
    size_t n = nk > 12 ? 12 : nk;
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%zu\" "
               "font-family=\"sans-serif\" font-size=\"11\">\n", W, n * rowh + 20);
    for (size_t r = 0; r < n; r++) {
        const struct spam_hist *h = hs[r].incl;
        uint64_t b[64] = {0}, top = 1;
        for (size_t i = 0; i < SPAM_HIST_BUCKETS; i++)
            if (h->counts[i]) {
                uint64_t v = spam_hist_bucket_lo(i);
                b[v ? 64 - __builtin_clzll(v) : 0] += h->counts[i];
            }
        for (int k = 0; k < 40; k++)
            top = b[k] > top ? b[k] : top;
        int y0 = (int)(r * rowh) + 20;
        fprintf(f, "<text x=\"10\" y=\"%d\">%s: inclusive service time (us), n=%" PRIu64 ", p50=%" PRIu64
                   " p99=%" PRIu64 " max=%" PRIu64 "</text>\n",
                y0, hs[r].name, h->count, spam_hist_percentile(h, 50),
                spam_hist_percentile(h, 99), h->max);
        for (int k = 0; k < 40; k++) {
            int bh = (int)(120 * b[k] / top), x = 40 + k * 16;
            fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"%d\" fill=\"#4a7ab5\"/>\n", x,
                    y0 + 140 - bh, bh);
            if (k % 4 == 0)
                fprintf(f, "<text x=\"%d\" y=\"%d\">2^%d</text>\n", x, y0 + 155, k);
        }
    }
    fprintf(f, "</svg>\n");
}

