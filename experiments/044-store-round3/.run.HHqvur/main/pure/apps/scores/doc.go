// Package scores is the scoreboard app of the seeds' HTTP contract,
// declared for the app runtime (package app):
//
//	POST /inputs/score?points=N  body: the name; adds N to that name's
//	                             score and answers the name
//	GET  /views/total            the sum of all scores, as decimal text
//	GET  /views/leaders?from=F&count=C
//	                             rows in name order as JSON:
//	                             [{"name":"alice","score":12},...]
//
// Scores are int64: an input that would overflow a score is refused with
// 409 and changes nothing; an empty name is refused with 400.
package scores
