# OpenBench builds with `make -j EXE=<name>` and runs `./<name> bench`.
#
#   make                          ./prunelab, the variants build: every
#                                 variant's search in one binary, the UCI
#                                 option Variant choosing it (bench searches
#                                 as baseline)
#   make EXE=prunelab-1a2b3c4d    the same under another name (or path)
#   make VARIANT=razor-r2         the variants build searching as razor-r2
#                                 until Variant is set (bench too)
#   make FEATURES="lmp razor-r1"  one feature set: these features compiled
#                                 in and nothing else (no Variant option)
#   make VARIANT=razor-r2 FEATURES=tune   the variants build, tunables as options
#   PRUNELAB_TUNABLES="$(prunelab variant-tunables p002-1.6)" make FEATURES="..."
#                                 one feature set with a variant's [tunables]
#                                 compiled in (the variants build has every
#                                 variant's already, and refuses the variable)
#   make PROFILE=ci-variants      a quicker build with the same node counts (CI)
#
# One cargo build each: a variant's name is checked and resolved at compile
# time (build.rs), so nothing is built first to read the variant files.

EXE ?= prunelab
FEATURES ?=
VARIANT ?=
PROFILE ?= release
CARGO ?= cargo
TARGET_DIR ?= $(or $(CARGO_TARGET_DIR),target)

.PHONY: $(EXE) test bench clean

$(EXE):
	@if [ -n "$(FEATURES)" ] && [ -z "$(VARIANT)" ]; then \
		features="$(FEATURES)"; \
	else \
		features="variants $(FEATURES)"; \
	fi; \
	echo "PRUNELAB_VARIANT=$(VARIANT) $(CARGO) build --profile $(PROFILE) --bin prunelab --features \"$$features\""; \
	PRUNELAB_VARIANT="$(VARIANT)" $(CARGO) build --profile $(PROFILE) --bin prunelab --features "$$features"
	cp $(TARGET_DIR)/$(PROFILE)/prunelab $(EXE)

test:
	bash ci/test.sh

bench: $(EXE)
	$(abspath $(EXE)) bench

clean:
	$(CARGO) clean
	rm -f $(EXE)
