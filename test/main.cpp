// Catch2's main, compiled once for every test executable.
#define CATCH_CONFIG_MAIN
#include "catch.hpp"
