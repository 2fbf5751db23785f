/* bench/floor.c — the floor for a cached hit: the least a server can do per request.
 *
 * `make bench` runs it beside nginx and almanac, answering with the exact bytes of almanac's
 * cached GET /v1/rates (status line, headers and body, captured in the same run), so the CPU
 * each spends per hit can be compared with what no server can go below: two forked workers,
 * each with its own epoll on one shared listener (EPOLLEXCLUSIVE), one read and one write per
 * request, no parsing beyond counting request ends, no allocation, no logging.
 *
 *   cc -O2 -o floor bench/floor.c && ./floor PORT RESPONSE_FILE [WORKERS]
 *
 * Binds 127.0.0.1 only. Workers die with the parent (PR_SET_PDEATHSIG), so stopping the
 * parent by its PID stops them all. */
#define _GNU_SOURCE
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

static char response[65536];
static size_t response_len;

/* One worker: accept what arrives, answer each request end ("\r\n\r\n") with the response. */
static void serve(int listener) {
    int ep = epoll_create1(0), one = 1;
    struct epoll_event ev = {.events = EPOLLIN | EPOLLEXCLUSIVE, .data.fd = listener}, events[256];
    static char buf[65536];
    if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, listener, &ev) < 0) { perror("epoll"); exit(1); }
    for (;;) {
        int n = epoll_wait(ep, events, 256, -1);
        for (int i = 0; i < n; i++) {
            int fd = events[i].data.fd;
            if (fd == listener) {
                int c;
                while ((c = accept4(listener, NULL, NULL, SOCK_NONBLOCK)) >= 0) {
                    setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
                    struct epoll_event cev = {.events = EPOLLIN, .data.fd = c};
                    epoll_ctl(ep, EPOLL_CTL_ADD, c, &cev);
                }
                continue;
            }
            ssize_t got = read(fd, buf, sizeof buf);
            if (got <= 0) { close(fd); continue; }
            int requests = 0;
            for (ssize_t j = 3; j < got; j++)
                if (buf[j] == '\n' && buf[j - 1] == '\r' && buf[j - 2] == '\n' && buf[j - 3] == '\r') requests++;
            while (requests-- > 0)
                if (write(fd, response, response_len) != (ssize_t)response_len) { close(fd); break; }
        }
    }
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: %s PORT RESPONSE_FILE [WORKERS]\n", argv[0]); return 2; }
    FILE *file = fopen(argv[2], "rb");
    if (!file || (response_len = fread(response, 1, sizeof response, file)) == 0) { perror(argv[2]); return 1; }
    fclose(file);
    int workers = argc > 3 ? atoi(argv[3]) : 2, one = 1;
    int listener = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons(atoi(argv[1])),
                               .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (bind(listener, (struct sockaddr *)&addr, sizeof addr) < 0 || listen(listener, 4096) < 0) { perror("listen"); return 1; }
    for (int w = 0; w < workers; w++) {
        if (fork() == 0) {
            prctl(PR_SET_PDEATHSIG, SIGTERM);
            if (getppid() == 1) return 0;
            serve(listener);
        }
    }
    while (wait(NULL) > 0) {}
    return 0;
}
