# One command per job. Every target installs what it needs into .venv first (PyPI only).
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp

.PHONY: install test test-fast lint formal soak gatesim mutate bench bench-engine bench-bots bench-player bench-trials bench-puzzles solve-mini \
	bench-room

# The virtual environment, with the project and every extra (gateware, simulation, boards, the
# test and lint tools) installed editable; redone when pyproject changes.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $@

install: $(STAMP)

# pytest on every core (pytest-xdist: a test goes to whichever worker is free, and a group
# marked xdist_group stays on one worker), with its exit status 5 (it collected no test: a
# selection that matched nothing) reported rather than treated as a failure of the code; the
# thirty slowest tests are listed after (the suite must stay well under half an hour in CI).
PYTEST = $(PY) -m pytest -n auto --dist loadgroup --durations=30 $(1); status=$$?; \
	if [ $$status -eq 5 ]; then echo "pytest collected no tests"; exit 0; fi; exit $$status

# Everything: lint, the import contract and type checks, then the whole suite on every core.
test: lint
	$(call PYTEST,)

# The quick tier: pure Python, no Verilator model, no bitstream, no slow brute force.
test-fast: $(STAMP)
	$(call PYTEST,-m "not verilator and not nextpnr and not formal and not slow")

# Ruff's findings, the import contracts (pyproject's importlinter section: one-way layers, no
# cycle in any package) and mypy's checks of the typed packages (rules, link, match).
lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports
	$(PY) tests/typecheck.py

# The gateware's proofs, SymbiYosys with Yices from PyPI (minutes); `make test` runs the fast
# ones. A control proof has a known flaw and must fail.
formal: $(STAMP)
	$(PY) -m fpgatrax.sim.formal

# The model player against every bot in every variant (10,000 games; 36 took 18 s on one core),
# then the simulated board against alphabeta with noise on the link (20 games, about 25 minutes),
# counting illegal, late and missing answers and answers to noise (all must be
# zero), then a million random bytes on the simulated player's link and a game (6 minutes).
# ARGS='--games 1000 --board-games 5 --uart-bytes 100000'.
soak: $(STAMP)
	$(PY) -m fpgatrax.host.bench.soak $(ARGS)

# The player as the boards' synthesis leaves it (iCE40 and ECP5 netlists with Yosys's cell
# models), simulated in Verilator playing games, answering as the RTL does clock for clock
# (minutes). ARGS='--games 4 ice40'.
gatesim: $(STAMP)
	$(PY) -m fpgatrax.boards.gatesim $(ARGS)

# Mutation testing of the rules, the match code and the search model with mutmut, in staged
# copies under build/mutate/ (the checkout is never changed): a score per package (minutes to
# an hour). ARGS='rules --jobs 1'.
mutate: $(STAMP)
	$(PY) tests/mutate.py $(ARGS)

bench: bench-engine bench-bots bench-player bench-strength

# Cycles per move of the gateware player in Verilator, and the time at board clocks (minutes).
bench-player: $(STAMP)
	$(PY) -m fpgatrax.host.bench.player

# Trials per second of each board's gateware search (Verilator: cycles per trial, median and
# 99th percentile) at the board's clock, against the reference engine and the search model in
# Python on the same positions (ratios); minutes. ARGS='--board hx8k --write docs/measurements.md'.
bench-trials: $(STAMP)
	$(PY) -m fpgatrax.host.bench.trials $(ARGS)

# Reference engine speed: perft leaves per second and random-play positions per second.
bench-engine: $(STAMP)
	$(PY) -m fpgatrax.host.bench.engine

# Bot strength: a small round robin between the software bots (about half a minute).
bench-bots: $(STAMP)
	$(PY) -m fpgatrax.host.bench.bots

# The solo puzzles: ten made per kind and difficulty, each solved and proven unique; the SAT
# solver's conflicts and cuts, and the times (half a minute). ARGS='--size 10 --count 20'.
bench-puzzles: $(STAMP)
	$(PY) -m fpgatrax.host.bench.puzzles $(ARGS)

# Mini Trax solved: the empty board's value with perfect play, by exhaustive search with and
# without the symmetries (half a minute).
solve-mini: $(STAMP)
	$(PY) -m fpgatrax.host.bench.mini

# The player past its keeper's board: games stretched to three times its room, the turns the
# keeper held them exactly and how they ended (minutes). ARGS='--keeper 64 --games 8'.
bench-room: $(STAMP)
	$(PY) -m fpgatrax.host.bench.room $(ARGS)

.PHONY: verify-array report

# The tile array against the reference engine: a large campaign (40,000 moves, other seeds
# than `make test`; FPGATRAX_ARRAY_MOVES / FPGATRAX_ARRAY_SEED override).
verify-array: $(STAMP)
	FPGATRAX_ARRAY_MOVES=$${FPGATRAX_ARRAY_MOVES:-40000} FPGATRAX_ARRAY_SEED=$${FPGATRAX_ARRAY_SEED:-1000} \
		$(PY) -m pytest -q -rA tests/hw/test_array.py

# Size and speed of the tile array per device: LUTs, flip-flops, LUTs per cell, Fmax (slow:
# synthesis and place-and-route of every size).
report: $(STAMP)
	$(PY) -m fpgatrax.host.bench.array_size

.PHONY: match bench-strength bench-selfplay

# The main job: one game between the simulated hardware player (the Player gateware in
# Verilator, behind a pseudo-terminal) and the greedy bot, judged in simulated time. The first
# run builds the simulator (a few minutes); later runs start at once.
match: $(STAMP)
	$(VENV)/bin/fpgatrax match --white sim --black greedy

# Strength of the hardware search (its Python model, with the ULX3S-85F's settings) against
# each bot, both colours, with the targets (a few minutes on two cores; ARGS=--quick: seconds),
# or against any player: make bench-strength OPPONENT='cmd:path/to/engine --its-options'.
bench-strength: $(STAMP)
	$(PY) -m fpgatrax.host.bench.strength $(if $(OPPONENT),--opponent '$(OPPONENT)') $(ARGS)

# One setting of the search against another by self-play on paired openings (issue 13's
# tuning): make bench-selfplay A=max_trials=30000 B=max_trials=10000 ARGS='--openings 50'.
bench-selfplay: $(STAMP)
	$(if $(A),,$(error give the settings to compare: make bench-selfplay A=max_trials=30000 B=max_trials=10000))
	$(PY) -m fpgatrax.host.bench.selfplay --a '$(A)' --b '$(B)' $(ARGS)

.PHONY: bitstream bitstreams program board-report

# A board's bitstream, with only the YoWASP tools from PyPI (minutes): make bitstream BOARD=NAME.
# `fpgatrax build --help` lists the boards; files go under build/boards/NAME/.
bitstream: $(STAMP)
	$(if $(BOARD),,$(error say which board: make bitstream BOARD=NAME (fpgatrax build --help lists them)))
	$(VENV)/bin/fpgatrax build $(BOARD)

# Every board's bitstream, one after another (about half an hour), then the table of figures.
bitstreams: $(STAMP)
	$(VENV)/bin/fpgatrax build

# Load a board's bitstream (built first if missing) with its programmer, or say what to install.
program: $(STAMP)
	$(if $(BOARD),,$(error say which board: make program BOARD=NAME (fpgatrax build --help lists them)))
	$(VENV)/bin/fpgatrax program $(BOARD)

# The boards' figures from their last builds: LUTs, flip-flops, clock, Fmax, worst time per move,
# printed and written into docs/measurements.md (between its generated markers).
board-report: $(STAMP)
	$(VENV)/bin/fpgatrax build --table --write docs/measurements.md
