// Plays one seeded game of OpenSpiel's `lost_cities` through the public API of
// open_spiel/spiel.h only, and writes what the program prints: the history as
// action strings and as numbers, SerializeGameAndState, ToString and the
// observation strings, plus a JSON dump of what the program reports.
//
// Usage: openspiel_driver GAME SEED STOP_TURNS OUT_PREFIX
//   GAME        the game string given to LoadGame, e.g. lost_cities or
//               lost_cities(enriched_obs=false)
//   SEED        seed of the std::mt19937 that picks every chance outcome and move
//   STOP_TURNS  stop after this many turns (0: play the game to its end)
//   OUT_PREFIX  files OUT_PREFIX.actions.txt, .history.txt, .serialized.txt,
//               .tostring.txt, .observation.txt, .state.json are written
//
// The moves are chosen at random among the legal actions; a draw takes the
// deck three times in four, so that games end in a reasonable number of turns
// yet take from the discard piles.
#include <fstream>
#include <iostream>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "open_spiel/spiel.h"

namespace {

std::string Quote(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out + "\"";
}

void Write(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::cerr << "usage: openspiel_driver GAME SEED STOP_TURNS OUT_PREFIX\n";
    return 2;
  }
  const std::string game_string = argv[1];
  const unsigned seed = static_cast<unsigned>(std::stoul(argv[2]));
  const int stop_turns = std::stoi(argv[3]);
  const std::string prefix = argv[4];

  std::shared_ptr<const open_spiel::Game> game =
      open_spiel::LoadGame(game_string);
  std::unique_ptr<open_spiel::State> state = game->NewInitialState();
  std::mt19937 rng(seed);
  std::vector<std::string> strings;
  std::vector<int> chance;
  int turns = 0;
  bool drew = false;
  while (!state->IsTerminal()) {
    if (stop_turns > 0 && turns == stop_turns && !state->IsChanceNode()) break;
    open_spiel::Action action;
    open_spiel::Player player = state->CurrentPlayer();
    if (state->IsChanceNode()) {
      open_spiel::ActionsAndProbs outcomes = state->ChanceOutcomes();
      std::uniform_int_distribution<int> pick(0, outcomes.size() - 1);
      action = outcomes[pick(rng)].first;
      chance.push_back(static_cast<int>(action));
    } else {
      std::vector<open_spiel::Action> legal = state->LegalActions();
      const open_spiel::Action deck = 144;
      bool draw_phase = legal.front() >= deck;
      if (draw_phase && legal.front() == deck &&
          (legal.size() == 1 || std::uniform_int_distribution<int>(0, 3)(rng) > 0)) {
        action = deck;
      } else {
        std::vector<open_spiel::Action> choices;
        for (open_spiel::Action a : legal) {
          if (!draw_phase || a != deck) choices.push_back(a);
        }
        std::uniform_int_distribution<int> pick(0, choices.size() - 1);
        action = choices[pick(rng)];
      }
      drew = draw_phase;
    }
    strings.push_back(state->ActionToString(player, action));
    state->ApplyAction(action);
    if (drew && !state->IsChanceNode()) {
      ++turns;
      drew = false;
    }
  }

  std::string actions;
  for (const std::string& s : strings) actions += s + "\n";
  Write(prefix + ".actions.txt", actions);
  Write(prefix + ".history.txt", state->HistoryString() + "\n");
  Write(prefix + ".serialized.txt",
        open_spiel::SerializeGameAndState(*game, *state));
  Write(prefix + ".tostring.txt", state->ToString());
  std::string observation;
  for (int p = 0; p < 2; ++p) {
    observation += state->ObservationString(p) + "\n";
    observation += state->InformationStateString(p) + "\n";
  }
  Write(prefix + ".observation.txt", observation);

  std::ostringstream json;
  json << "{\n  \"game\": " << Quote(game->ToString()) << ",\n";
  json << "  \"seed\": " << seed << ",\n";
  json << "  \"terminal\": " << (state->IsTerminal() ? "true" : "false") << ",\n";
  json << "  \"turns\": " << turns << ",\n";
  json << "  \"history\": [";
  std::vector<open_spiel::Action> history = state->History();
  for (size_t i = 0; i < history.size(); ++i) json << (i ? ", " : "") << history[i];
  json << "],\n  \"chance\": [";
  for (size_t i = 0; i < chance.size(); ++i) json << (i ? ", " : "") << chance[i];
  json << "],\n  \"action_strings\": [";
  for (size_t i = 0; i < strings.size(); ++i) json << (i ? ", " : "") << Quote(strings[i]);
  std::vector<double> returns = state->Returns();
  json << "],\n  \"returns\": [" << returns[0] << ", " << returns[1] << "],\n";
  json << "  \"to_string\": " << Quote(state->ToString()) << "\n}\n";
  Write(prefix + ".state.json", json.str());
  return 0;
}
