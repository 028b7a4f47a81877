# The engine's sources, relative to the repository's root: the one list the Python module,
# the page's WebAssembly (CMakeLists.txt) and the fuzz targets (cpp/fuzz/CMakeLists.txt) build.
set(manila_engine_sources
  cpp/src/voyage.cpp cpp/src/evaluator.cpp cpp/src/advice.cpp cpp/src/enumerate.cpp
  cpp/src/game.cpp cpp/src/game_actions.cpp cpp/src/game_auction.cpp cpp/src/game_placement.cpp
  cpp/src/game_voyage.cpp cpp/src/game_views.cpp cpp/src/game_bots.cpp cpp/src/game_solver.cpp
  cpp/src/game_observation.cpp cpp/src/json.cpp cpp/src/vector_env.cpp cpp/src/table.cpp
  cpp/src/analysis.cpp cpp/src/value.cpp cpp/src/cancel.cpp
  cpp/src/review.cpp cpp/src/api.cpp cpp/src/api_text.cpp cpp/src/api_state.cpp
  cpp/src/api_notation.cpp cpp/src/api_position.cpp cpp/src/api_voyage.cpp
  cpp/src/api_game.cpp cpp/src/api_value.cpp cpp/src/api_options.cpp
  cpp/src/api_analyse.cpp cpp/src/api_review.cpp cpp/src/api_play.cpp cpp/src/sha256.cpp
  cpp/src/words.cpp)
