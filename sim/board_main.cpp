// The simulated board: the player's Verilated model behind a pseudo-terminal.
//
// sim/board.py compiles this file together with the player's Verilog (top module "player") and
// runs it as:   board DIVISOR STATUS_FILE
//
// It opens a pseudo-terminal and prints "pty SLAVE_PATH" on stdout; whatever is written to that
// terminal is sent to the player's rx pin as 8N1 frames of DIVISOR clocks per bit, and the frames
// the player sends on tx are decoded and written back to the terminal. So a referee or a serial
// tool talks to it as to a board on a serial port. The clock runs free here, in C++, with no
// Python per clock.
//
// The board's time is exported through STATUS_FILE, a small file mapped into memory that
// sim/board.py reads (the layout of `Status`): the cycle count, the cycle at which the last
// byte sent on tx ended, and the player's status pins. That is how the referee judges the board
// in simulated time, whatever the speed of the simulation.
//
// While the player is idle (not thinking, both lines quiet for a while) the harness sleeps
// between short bursts of clocks, so an idle board costs almost no processor time; a byte
// arriving wakes it at once. It exits when its standard input closes (the Python side is gone,
// however it ended) or on SIGTERM.

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>

#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <termios.h>
#include <unistd.h>

#include <verilated.h>
#include "Vplayer.h"

// Clocks simulated between two looks at the terminal while the board is busy: small enough that
// a byte waits well under a millisecond of wall time, large enough that system calls cost
// nothing next to the model.
static const uint64_t BUSY_BATCH = 512;
// While idle: clocks per burst, and the sleep between bursts.
static const uint64_t IDLE_BATCH = 64;
static const int IDLE_SLEEP_MS = 20;
// Quiet clocks after the last activity before the board counts as idle: covers the player's
// short gaps between receiving a line and raising `thinking`.
static const uint64_t IDLE_GRACE = 16384;

// Read by sim/board.py (struct "<9Q"): keep the two in step.
struct Status {
    uint64_t magic;        // STATUS_MAGIC once the board runs
    uint64_t sequence;     // odd while the fields below are being written
    uint64_t cycle;        // clocks simulated so far
    uint64_t tx_end;       // the cycle at which the last byte on tx ended (its stop bit)
    uint64_t tx_bytes;     // bytes the player has sent
    uint64_t rx_bytes;     // bytes fully sent to the player's rx pin
    uint64_t idle;         // 1 while the board is idle (see IDLE_GRACE)
    uint64_t move_cycles;  // the player's move_cycles port
    uint64_t leds;         // bits: 0 thinking, 1 bad_input, 2 out_of_room, 3 game_over
};
static const uint64_t STATUS_MAGIC = 0x647261426172547FULL;

static void fail(const char *what) {
    std::fprintf(stderr, "board: %s: %s\n", what, std::strerror(errno));
    std::exit(1);
}

// Drives the rx pin: bytes in, 8N1 frames out, DIVISOR clocks per bit, back to back.
struct Serialiser {
    uint64_t divisor;
    std::deque<uint8_t> queue;
    int bit = -1;              // -1 idle; 0 start bit; 1..8 data bits; 9 stop bit
    uint64_t count = 0;        // clocks left in the current bit
    uint8_t byte = 0;

    bool busy() const { return bit >= 0 || !queue.empty(); }

    // The pin level for the next clock; `finished` is set when a frame has just ended.
    int level(bool &finished) {
        finished = false;
        if (bit >= 0 && count == 0) {
            if (++bit > 9) {
                bit = -1;
                finished = true;
            } else {
                count = divisor;
            }
        }
        if (bit < 0 && !queue.empty()) {
            byte = queue.front();
            queue.pop_front();
            bit = 0;
            count = divisor;
        }
        if (bit < 0) return 1;
        count--;
        if (bit == 0) return 0;
        if (bit == 9) return 1;
        return (byte >> (bit - 1)) & 1;
    }
};

// Watches the tx pin: samples each bit in its middle, as a UART receiver does.
struct Deserialiser {
    uint64_t divisor;
    bool active = false;
    uint64_t start = 0;        // the cycle the start bit began
    unsigned bits = 0;         // bits sampled so far, start bit included
    uint16_t shift = 0;

    // Feeds the pin level at `cycle`; returns a byte (0..255) at the end of a good frame, -1
    // otherwise (a frame with a low stop bit is dropped, as a receiver would).
    int feed(int level, uint64_t cycle) {
        if (!active) {
            if (level == 0) {
                active = true;
                start = cycle;
                bits = 0;
                shift = 0;
            }
            return -1;
        }
        uint64_t offset = cycle - start;
        if (bits < 10 && offset == divisor / 2 + bits * divisor) {
            shift |= uint16_t(level) << bits;
            bits++;
        }
        if (offset + 1 < 10 * divisor) return -1;
        active = false;
        if (!(shift & 1) && (shift >> 9) == 1) return (shift >> 1) & 0xFF;
        return -1;
    }
};

int main(int argc, char **argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: %s DIVISOR STATUS_FILE\n", argv[0]);
        return 2;
    }
    uint64_t divisor = std::strtoull(argv[1], nullptr, 10);
    if (divisor < 4) {
        std::fprintf(stderr, "board: the baud divisor must be at least 4\n");
        return 2;
    }

    int status_fd = open(argv[2], O_RDWR | O_CREAT | O_TRUNC, 0600);
    if (status_fd < 0) fail("cannot create the status file");
    if (ftruncate(status_fd, sizeof(Status)) != 0) fail("cannot size the status file");
    void *mapped = mmap(nullptr, sizeof(Status), PROT_READ | PROT_WRITE, MAP_SHARED, status_fd, 0);
    if (mapped == MAP_FAILED) fail("cannot map the status file");
    volatile Status *status = static_cast<volatile Status *>(mapped);

    int master = posix_openpt(O_RDWR | O_NOCTTY);
    if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0) fail("cannot open a pty");
    const char *slave_path = ptsname(master);
    if (!slave_path) fail("cannot name the pty");
    // Holding the slave open keeps the master readable when no client is connected; raw mode
    // keeps the terminal from echoing or translating bytes before a client sets it up itself.
    int slave = open(slave_path, O_RDWR | O_NOCTTY);
    if (slave < 0) fail("cannot open the pty's slave");
    struct termios tio;
    if (tcgetattr(slave, &tio) != 0) fail("cannot read the pty's settings");
    cfmakeraw(&tio);
    if (tcsetattr(slave, TCSANOW, &tio) != 0) fail("cannot set the pty to raw mode");
    if (fcntl(master, F_SETFL, O_NONBLOCK) != 0) fail("cannot make the pty non-blocking");

    VerilatedContext context;
    Vplayer top{&context};
    uint64_t cycle = 0;
    auto tick = [&]() {
        top.clk = 0;
        top.eval();
        top.clk = 1;
        top.eval();
        cycle++;
    };
    top.rx = 1;
    top.rst = 1;
    for (int i = 0; i < 4; i++) tick();
    top.rst = 0;

    Serialiser rx{divisor};
    Deserialiser tx{divisor};
    std::deque<uint8_t> to_pty;
    uint64_t last_active = cycle;
    uint64_t rx_bytes = 0, tx_bytes = 0, tx_end = 0, sequence = 0;
    bool idle = false;
    status->magic = STATUS_MAGIC;
    // Announced only now, so that whoever opens the pty finds the status ready.
    std::printf("pty %s\n", slave_path);
    std::fflush(stdout);

    for (;;) {
        struct pollfd fds[2] = {{master, POLLIN, 0}, {STDIN_FILENO, POLLIN, 0}};
        if (poll(fds, 2, idle ? IDLE_SLEEP_MS : 0) < 0 && errno != EINTR) fail("poll failed");
        if (fds[1].revents) {
            char scrap[256];
            if (read(STDIN_FILENO, scrap, sizeof scrap) <= 0) break;  // our parent is gone
        }
        if (fds[0].revents & POLLIN) {
            uint8_t buffer[4096];
            ssize_t n = read(master, buffer, sizeof buffer);
            for (ssize_t i = 0; i < n; i++) rx.queue.push_back(buffer[i]);
        }

        uint64_t batch = idle && !rx.busy() ? IDLE_BATCH : BUSY_BATCH;
        for (uint64_t i = 0; i < batch; i++) {
            bool sent;
            top.rx = rx.level(sent);
            rx_bytes += sent;
            tick();
            int byte = tx.feed(top.tx, cycle);
            if (byte >= 0) {
                tx_end = cycle;
                tx_bytes++;
                to_pty.push_back(uint8_t(byte));
            }
            if (rx.busy() || tx.active || !top.tx || top.thinking) last_active = cycle;
        }
        // Idle is judged after the clocks, so a line delivered in them is never reported idle.
        idle = cycle - last_active > IDLE_GRACE && !rx.busy();

        uint64_t leds = uint64_t(top.thinking) | uint64_t(top.bad_input) << 1
                        | uint64_t(top.out_of_room) << 2 | uint64_t(top.game_over) << 3;
        // Published as one snapshot (an odd sequence number means "being written"), before the
        // bytes reach the pty: a reader that has an answer's last byte has the cycle it ended.
        status->sequence = ++sequence;
        std::atomic_thread_fence(std::memory_order_seq_cst);
        status->cycle = cycle;
        status->tx_end = tx_end;
        status->tx_bytes = tx_bytes;
        status->rx_bytes = rx_bytes;
        status->idle = idle;
        status->move_cycles = top.move_cycles;
        status->leds = leds;
        std::atomic_thread_fence(std::memory_order_seq_cst);
        status->sequence = ++sequence;

        while (!to_pty.empty()) {
            uint8_t byte = to_pty.front();
            ssize_t n = write(master, &byte, 1);
            if (n == 1) {
                to_pty.pop_front();
            } else if (errno == EAGAIN || errno == EINTR) {
                break;   // nobody is reading: keep the bytes for later
            } else {
                fail("cannot write to the pty");
            }
        }
    }
    top.final();
    return 0;
}
