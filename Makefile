# OpenBench builds with `make -j EXE=<name>` and runs `./<name> bench`.
#
#   make                          the baseline engine, ./prunelab
#   make EXE=prunelab-1a2b3c4d    the same under another name (or path)
#   make FEATURES="lmp razor-r1"  with these pruning features compiled in
#   make VARIANT=razor-r2         with a variant's features (its own, its
#                                 parents', implied ones; see variants/)
#   make VARIANT=razor-r2 FEATURES=tune   a variant plus more features

EXE ?= prunelab
FEATURES ?=
VARIANT ?=
CARGO ?= cargo
TARGET_DIR ?= $(or $(CARGO_TARGET_DIR),target)

.PHONY: $(EXE) test bench clean

# A variant's features are resolved by the library's variant loader
# (ci/variant-features.sh), so make and the matrix agree on what it is.
$(EXE):
	@features="$(FEATURES)"; \
	if [ -n "$(VARIANT)" ]; then \
		variant_features=$$(bash ci/variant-features.sh "$(VARIANT)") || exit 1; \
		echo "variant $(VARIANT): $${variant_features:-no features}"; \
		features="$$variant_features $$features"; \
	fi; \
	echo "$(CARGO) build --release --bin prunelab --features \"$$features\""; \
	$(CARGO) build --release --bin prunelab --features "$$features"
	cp $(TARGET_DIR)/release/prunelab $(EXE)

test:
	bash ci/test.sh

bench: $(EXE)
	$(abspath $(EXE)) bench

clean:
	$(CARGO) clean
	rm -f $(EXE)
