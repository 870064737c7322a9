# OpenBench builds with `make -j EXE=<name>` and runs `./<name> bench`.
# FEATURES="a b" compiles pruning features in; the default is the baseline.

EXE ?= prunelab
FEATURES ?=
CARGO ?= cargo
TARGET_DIR ?= $(or $(CARGO_TARGET_DIR),target)

.PHONY: $(EXE) test bench clean

$(EXE):
	$(CARGO) build --release --bin prunelab --features "$(FEATURES)"
	cp $(TARGET_DIR)/release/prunelab $(EXE)

test:
	$(CARGO) test --release

bench: $(EXE)
	./$(EXE) bench

clean:
	$(CARGO) clean
	rm -f $(EXE)
