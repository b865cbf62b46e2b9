// Shared test helpers (TemporaryDirectory, SeededGenerator) for every file of this target.
@_exported import TestSupport
