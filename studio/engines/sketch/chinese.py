"""Reading a turn written in Chinese, Simplified or Traditional: its words, put into the
English words the sketch world knows.

Chinese writes no spaces between words, and its verbs do not change: what happens is said by
words around them, aspect particles ("在跑步", "正在跑", "跑着", "跑了") and negation ("不跑",
"没有跑"). This module finds the Chinese words of the world (motions, places, times of day,
camera moves, adverbs of level) and puts each one's English word in its place, with spaces
around: "小明晚上在公园跑步" -> "小明 night 在 park run". The English reader then reads the
turn as it reads any other, so what is understood and what is not show exactly as for an
English turn. A motion said not to be done ("不跑") is read "not run,", as the Japanese reader
reads "走らない".

Which turns are Chinese (:func:`is_chinese`): a turn with kana is Japanese, always. A turn of
Han characters without kana is Chinese when it says so (:func:`~studio.core.sentence.marked_chinese`:
a Chinese field name such as 角色 or 动作, a character only Chinese writes such as 们, 这, 时,
or one of the particles 的, 了, 着, 在); a turn of Han characters that says neither is read as
Japanese, as before, unless it holds no kanji only Japanese writes (歩, 駅) and the Chinese
reading understands more of it than the Japanese one ("動作：跑步；背景：公園": Japanese knows
公園 only).

Matching takes the longest word first at each place in the text ("慢跑" is jogging, not
"slowly run"; "车站" a station, not "stand"). Words that hold one of ours but are something
else ("飞机", an aeroplane; "上海", a city) are known too and kept as written. A word of one
character that is no verb is read only where a word may start: after a word of ours, a name,
a particle such as 在 or 的, or anything that is not a Han character ("在海里" is the sea, "上海"
not). A name of the cast (or of the project's places) is kept as written, set apart from its
neighbours, so that a character named 海 is someone, not the sea, unless it is written as a
place ("在海里游泳").
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from studio.core.instruction import Instruction, time_words
from studio.core.sentence import JAPANESE_ONLY_CHARS, marked_chinese
from studio.engines.sketch.translated import fields_in_english


@dataclass(frozen=True, slots=True)
class ChineseWord:
    """One Chinese word and the English words it is read as.

    ``kind``: 'verb' (a motion or camera move: may be negated, and read after any character),
    'noun' (a place, a time, a thing), 'adverb' (a manner: 地 after it is left out) or 'other'
    (a word that holds one of ours but means something else: kept as it is written)."""

    written: str
    english: str
    kind: str = "noun"


_TRADITIONAL: dict[str, str] = dict(zip(
    "丝乱亮仅从们众优伞伙会伟传伤伦伪体佣侠侣侦侧侨俭债倾偿储儿兑兰关兴兹养兽冈册写军农冲决况冻净准凉凑减凤"
    "几凭击划则刚创删别刮制剧劝办务动励劲劳势勋匀区医华协单卖卢卫却厅历厉压厌县参双发变叙叶号叹吓吗吨听启吴"
    "呐员呛呜咏咙咸响哑哗唤啰啸喷嘘团园围图圆圣场坏块坚坛坝坟坠垄垒垫埘墙壮声壳壶处备复够头夸夹夺奋奖妆妇妈"
    "娱娄婴孙学宁宝实宠审宪宫宽宾对寻导寿将尔尘尝尧层岁岂岗岚岭岳峡币帅师帐帜带帮广庄庆库应庙废开异弃张弯弹"
    "归录彻忆忧怀态怜总恋恶恳悬惊惧惨惩惭惯愤忏懒戏战户扑执扩扫扬扰抚抛抢护报担拟拢拣拥拦拧拨择挂挡挣挤挥捞"
    "损捡换捣据掳掷掸掺揽搀搁搂搅携摄摆摇摊撑撵擞数斋斗斩断无旧时旷昙昼显晋晒晓晕暂术朴机杀杂权条来杨杰松极"
    "构枪枫柜栋栏树样桥检椭楼榄横樱欢欧歼残毁毕毙气氢汇汉汤沟没沣沤沥沦沧沪泞泪泻泼泽洁洒浅浆浇浊测济浏浑浓"
    "涂涛涝涡润涨渊渐渔渗温湾湿溃滚滞满滤滥滨滩潇潜澜灭灯灵灿炉炖点炼烁烂烛烟烦烧烫热焕爱爷牍牵牺犹狈狭狮独"
    "狱猎猫献环现玛珑琐琼瓯电画畅痒监盏盖盘眯着睁矫矿码砖础硕确碍礼祷祸离种积称稳穷窃窍窝窥竖竞笔笼筑筛签简"
    "粮紧纠红纤约级纪纬纯纱纲纳纵纷纸纹纺线练组细织终绍经绑绒结绕绘给络绝统继绩绪续绳维绵综绿缓编缘缩缴网罗"
    "罚罢羡习翘耸聋职联肃肠肤肿胀胁胆胜胶脉脏脑脚脱腊舰舱艰艺节芦苏范茎荐荡荣药莱获莹营萧萨蓝蔷虑虽虾蚀蚂蛮"
    "补衬袜袭装见观规视览觉誉计订认讨让训议讯记讲许论设访证评识诉诊词译试诗诚话诞询该详语误说请诸读课谁调谈"
    "谊谋谎谜谢谣谦谨谱谷贝负贡财责贤败货质贩贪贫购贯贵贴贷贸费贺资赋赌赏赔赖赚赛赞赠赶趋跃践踪蹑躯车轨轩转"
    "轮软轻载较辅辆辈辉辑输辞辩边辽达迁过迈运还这进远违连迟适选递逻遗邮邻郁酱酿释里鉴钉钓钟钢钥钦钻铃铅铜铺"
    "链销锁锅锋错键锻镇镜长门闪闭问闯闲间闷闹闻阁阅队阳阴阵际陆陈险随隐隶难雏雾韦韩页顶项顺须顽顾顿预领频颗"
    "题颜风飘飞饥饭饮饰饱饼馆首驱驶驾骄骑骗鱼鲜鸟鸡鸣鸥鸭鸿鹅鹤鹰麦黄龄龙",
    "絲亂亮僅從們眾優傘夥會偉傳傷倫偽體傭俠侶偵側僑儉債傾償儲兒兌蘭關興茲養獸岡冊寫軍農衝決況凍淨準涼湊減鳳"
    "幾憑擊劃則剛創刪別颳製劇勸辦務動勵勁勞勢勳勻區醫華協單賣盧衛卻廳歷厲壓厭縣參雙發變敘葉號嘆嚇嗎噸聽啟吳"
    "吶員嗆嗚詠嚨鹹響啞嘩喚囉嘯噴噓團園圍圖圓聖場壞塊堅壇壩墳墜壟壘墊塒牆壯聲殼壺處備復夠頭誇夾奪奮獎妝婦媽"
    "娛婁嬰孫學寧寶實寵審憲宮寬賓對尋導壽將爾塵嘗堯層歲豈崗嵐嶺嶽峽幣帥師帳幟帶幫廣莊慶庫應廟廢開異棄張彎彈"
    "歸錄徹憶憂懷態憐總戀惡懇懸驚懼慘懲慚慣憤懺懶戲戰戶撲執擴掃揚擾撫拋搶護報擔擬攏揀擁攔擰撥擇掛擋掙擠揮撈"
    "損撿換搗據擄擲撣摻攬攙擱摟攪攜攝擺搖攤撐攆擻數齋鬥斬斷無舊時曠曇晝顯晉曬曉暈暫術樸機殺雜權條來楊傑鬆極"
    "構槍楓櫃棟欄樹樣橋檢橢樓欖橫櫻歡歐殲殘毀畢斃氣氫匯漢湯溝沒灃漚瀝淪滄滬濘淚瀉潑澤潔灑淺漿澆濁測濟瀏渾濃"
    "塗濤澇渦潤漲淵漸漁滲溫灣濕潰滾滯滿濾濫濱灘瀟潛瀾滅燈靈燦爐燉點煉爍爛燭煙煩燒燙熱煥愛爺牘牽犧猶狽狹獅獨"
    "獄獵貓獻環現瑪瓏瑣瓊甌電畫暢癢監盞蓋盤瞇著睜矯礦碼磚礎碩確礙禮禱禍離種積稱穩窮竊竅窩窺豎競筆籠築篩簽簡"
    "糧緊糾紅纖約級紀緯純紗綱納縱紛紙紋紡線練組細織終紹經綁絨結繞繪給絡絕統繼績緒續繩維綿綜綠緩編緣縮繳網羅"
    "罰罷羨習翹聳聾職聯肅腸膚腫脹脅膽勝膠脈臟腦腳脫臘艦艙艱藝節蘆蘇範莖薦蕩榮藥萊獲瑩營蕭薩藍薔慮雖蝦蝕螞蠻"
    "補襯襪襲裝見觀規視覽覺譽計訂認討讓訓議訊記講許論設訪證評識訴診詞譯試詩誠話誕詢該詳語誤說請諸讀課誰調談"
    "誼謀謊謎謝謠謙謹譜穀貝負貢財責賢敗貨質販貪貧購貫貴貼貸貿費賀資賦賭賞賠賴賺賽贊贈趕趨躍踐蹤躡軀車軌軒轉"
    "輪軟輕載較輔輛輩輝輯輸辭辯邊遼達遷過邁運還這進遠違連遲適選遞邏遺郵鄰鬱醬釀釋裡鑑釘釣鐘鋼鑰欽鑽鈴鉛銅鋪"
    "鏈銷鎖鍋鋒錯鍵鍛鎮鏡長門閃閉問闖閒間悶鬧聞閣閱隊陽陰陣際陸陳險隨隱隸難雛霧韋韓頁頂項順須頑顧頓預領頻顆"
    "題顏風飄飛飢飯飲飾飽餅館首驅駛駕驕騎騙魚鮮鳥雞鳴鷗鴨鴻鵝鶴鷹麥黃齡龍",
    strict=True))
_TRADITIONAL.update(zip("丛东丢举乐乡书云卧厨后岛惫愿梦涩疯篱绊钱铁饪马鸦颤荫",
                        "叢東丟舉樂鄉書雲臥廚後島憊願夢澀瘋籬絆錢鐵飪馬鴉顫蔭", strict=True))
"""Simplified characters and their Traditional forms (a character written the same in both is
not listed). Each Simplified word below is also known in Traditional."""


def _traditional(word: str) -> str:
    """``word`` in Traditional characters (those the table knows; others are the same in both)."""
    return "".join(_TRADITIONAL.get(ch, ch) for ch in word)


def simplified_words(groups: Iterable[str]) -> tuple[tuple[str, str], ...]:
    """(Simplified word, its English) of each pair of ``groups`` (strings of the tables below),
    as listed; each one's Traditional form is :func:`in_traditional` of it."""
    return tuple((word.strip(), english.strip()) for pairs in groups for pair in pairs.split(",") if pair.strip()
                 for word, english in (pair.split("="),))


def in_traditional(word: str) -> str:
    """``word`` in Traditional characters (the same where both write it alike)."""
    return _traditional(word)


def _words(pairs: str, kind: str = "noun") -> tuple[ChineseWord, ...]:
    """Words written as 'chinese=english' pairs separated by commas ("公园=park, 跑步=run"), in
    Simplified characters; each also in Traditional where it is written otherwise."""
    out: list[ChineseWord] = []
    for pair in pairs.split(","):
        if not pair.strip():
            continue
        written, english = (part.strip() for part in pair.split("="))
        for form in dict.fromkeys((written, _traditional(written))):
            out.append(ChineseWord(form, english, kind))
    return tuple(out)


MOTION_GROUPS: dict[str, str] = {
    "idle": "站=stand, 站着=stand, 站立=stand, 站起来=stand up, 起身=stand up, 起床=stand up, 等=wait, 等待=wait,"
            "等候=wait, 停=stop, 停下=stop, 停住=stop, 休息=relax, 发呆=stand still, 一动不动=stand still,"
            "放松=relax, 闲着=relax",
    "walk": "走=walk, 走路=walk, 步行=walk, 行走=walk, 散步=take walk, 漫步=stroll, 去=go, 前往=head, 走向=walk,"
            "前进=move, 回家=go home, 行进=march, 游荡=wander, 徘徊=wander, 闲逛=stroll, 逛=stroll, 逛街=stroll",
    "run": "跑=run, 跑步=run, 奔跑=run, 冲=dash, 冲刺=dash, 慢跑=jog, 赶路=hurry, 赛跑=race, 跑来跑去=run around,"
           "到处跑=run around",
    "sneak": "踮脚=tiptoe, 踮着脚=tiptoe, 蹑手蹑脚=tiptoe, 潜行=sneak, 溜=sneak, 溜进=sneak, 潜入=sneak,"
             "爬行=crawl, 匍匐=crawl",
    "jump": "跳=jump, 跳跃=jump, 弹跳=bounce, 蹦=jump, 蹦蹦跳跳=skip, 跳起来=leap, 跳下=leap, 一跃=leap",
    # Chinese has no one word for riding a broom: 骑扫帚 and 骑着扫帚 are read as a whole
    "fly on broomstick": "飞=fly, 飞翔=fly, 飞行=fly, 飞来飞去=fly around, 骑扫帚=ride broom, 骑着扫帚=ride broom,"
                         "扫帚=broom, 扫把=broom,"
                         "翱翔=soar, 悬浮=hover, 起飞=take off",
    # 拿 and 握 alone (hold) say nothing drawn: they are read with the broom (拿着扫帚)
    "hold broom": "拿着扫帚=hold broom, 拿扫帚=hold broom, 握着扫帚=hold broom, 拿着扫把=hold broom, 拿扫把=hold broom",
    "sweep": "扫=sweep, 扫地=sweep, 打扫=clean, 清扫=sweep, 收拾=tidy, 整理=tidy",
    "sit": "坐=sit, 坐下=sit, 坐着=sit, 就座=take seat, 入座=take seat, 跪=kneel, 跪下=kneel",
    "lie down": "躺=lie down, 躺下=lie down, 躺着=lie down, 趴=lie down, 趴着=lie down, 歇息=rest",
    "sleep": "睡=sleep, 睡觉=sleep, 入睡=sleep, 午睡=take nap, 小睡=take nap, 打盹=doze, 打瞌睡=doze,"
             "上床睡觉=go bed",
    "turn head": "回头=turn head, 转头=turn head, 扭头=turn head, 回首=look back, 回望=look back, 瞥=glance,"
                 "瞥一眼=glance",
    "look around": "看=look, 看看=look, 环顾=look around, 张望=look around, 四处张望=look around,"
                   "东张西望=look around, 眺望=gaze, 凝视=stare, 盯着=stare, 寻找=search, 找=search, 观察=observe,"
                   "偷看=peek, 偷窥=peek, 仰望=look up, 抬头=look up, 俯视=look down, 低头看=look down,"
                   "探险=explore, 观光=sightsee, 参观=sightsee, 游览=sightsee",
    "wave": "挥手=wave hand, 招手=beckon, 打招呼=greet, 问候=greet, 问好=greet, 握手=greet, 送别=farewell,"
            "告别=farewell, 道别=farewell",
    "talk": "说话=talk, 说=say, 讲=talk, 讲话=talk, 聊天=chat, 谈话=converse, 交谈=converse, 对话=converse,"
            "低语=whisper, 耳语=whisper, 叫=call, 呼唤=call, 问=ask, 询问=ask, 商量=discuss, 讨论=discuss,"
            "打电话=call",
    # no one word for "socialise": 见面, 和朋友见面
    "meet people": "见面=meet, 遇见=meet, 遇到=meet, 相遇=meet, 碰见=meet, 拜访=visit, 探望=visit, 访问=visit",
    "hug": "拥抱=hug, 抱=hug, 抱住=hug, 相拥=embrace, 牵手=hold hand, 手牵手=hold hand, 拉手=hold hand",
    "laugh": "笑=laugh, 大笑=laugh, 微笑=smile, 咯咯笑=giggle, 偷笑=giggle",
    "cry": "哭=cry, 哭泣=cry, 大哭=cry, 流泪=cry, 抽泣=sob, 啜泣=sob, 伤心=be sad, 难过=be sad",
    "dance": "跳舞=dance, 舞蹈=dance, 起舞=dance, 芭蕾=ballet",
    "spin": "转=spin, 转圈=spin, 旋转=rotate, 打转=twirl",
    "sing": "唱=sing, 唱歌=sing, 哼歌=hum, 哼=hum, 卡拉OK=karaoke",
    "play": "玩=play, 玩耍=play, 游戏=game, 打球=play ball, 玩球=play ball",
    "eat": "吃=eat, 吃饭=dine, 用餐=dine, 进食=eat, 咬=bite, 品尝=taste, 尝=taste",
    "drink": "喝=drink, 饮=drink, 喝水=drink, 啜=sip",
    "cook": "做饭=cook, 烹饪=cook, 煮=cook, 烤=bake, 炒=fry, 搅拌=stir, 下厨=cook",
    "read": "读=read, 读书=read, 看书=read, 阅读=read, 学习=study",
    "write": "写=write, 写字=write, 画=draw, 画画=draw, 绘画=draw, 素描=sketch, 记笔记=note, 涂鸦=doodle, 涂色=paint",
    "swim": "游泳=swim, 游=swim, 潜水=dive, 戏水=splash, 玩水=splash, 漂浮=float",
    "fall": "摔倒=fall, 跌倒=fall, 摔=fall, 跌=fall, 掉=fall, 掉下=fall, 落下=fall, 绊倒=trip, 滑倒=slip,"
            "倒下=collapse",
    "climb": "爬=climb, 攀爬=climb, 攀登=climb, 登=climb, 爬树=climb tree",
    "stretch": "伸懒腰=stretch, 伸展=stretch, 拉伸=stretch, 打哈欠=yawn, 做操=exercise, 热身=warm up, 运动=exercise,"
               "锻炼=exercise",
    "kick": "踢=kick, 踩=stomp, 跺脚=stomp",
    "punch": "打=hit, 揍=hit, 出拳=punch, 打拳=box, 拳击=box, 战斗=fight, 打架=fight, 格斗=fight, 空手道=karate,"
             "练功=train",
    "bow": "鞠躬=bow, 行礼=bow, 低头=bow head, 感谢=thank, 致谢=thank",
    "nod": "点头=nod",
    "throw": "扔=throw, 投=throw, 丢=throw, 投掷=throw, 抛=toss, 打雪仗=throw, 扔雪球=throw",
    "catch": "接=catch, 接住=catch, 抓=catch, 抓住=catch, 捉=catch, 接过=receive",
    "shiver": "发抖=shiver, 颤抖=shiver, 哆嗦=shiver, 打哆嗦=shiver, 瑟瑟发抖=tremble, 冻=freeze",
    "clap": "鼓掌=applaud, 拍手=clap hand, 庆祝=celebrate, 欢呼=cheer, 加油=cheer",
    "think": "想=think, 思考=think, 考虑=think, 想起=remember, 回忆=remember, 想象=imagine, 做梦=dream, 梦见=dream,"
             "沉思=ponder, 发愁=ponder, 幻想=daydream",
    "pray": "祈祷=pray, 祷告=pray, 许愿=make wish, 冥想=meditate, 合掌=clasp hand, 双手合十=clasp hand, 参拜=pray",
    "shout": "喊=shout, 大喊=shout, 叫喊=shout, 呼喊=shout, 吼=yell, 大叫=yell, 尖叫=shout",
    "point": "指=point, 指着=point, 指向=point",
    "carry": "搬=carry, 搬运=carry, 提=carry, 扛=carry, 送=deliver, 送货=deliver, 递送=deliver, 举起=lift, 抬=lift",
    "sulk": "生气=get angry, 发脾气=get angry, 赌气=sulk, 闹别扭=sulk, 撅嘴=pout, 噘嘴=pout, 气鼓鼓=fume",
}
"""Chinese verbs for each motion of :data:`~studio.engines.sketch.vocabulary.MOTIONS`, by the
motion they play as."""

THING_GROUPS: dict[str, str] = {
    # a seat word stays: 坐在长椅上 sits on the bench
    "sit": "长椅=bench, 长凳=bench, 椅子=chair, 沙发=sofa, 凳子=stool, 地板=floor, 地上=ground, 地面=ground",
    # no one word for sitting on a railing either: 坐在栏杆上 is read as "sit" and "railing"
    "sit on railing": "栏杆=railing, 扶手=railing, 篱笆=fence, 围栏=fence, 墙=wall, 围墙=wall",
    "talk": "电话=call, 手机=phone, 智能手机=phone",
    "meet people": "朋友=friend",
    "laugh": "笑容=smile",
    "cry": "眼泪=tear, 泪=tear",
    "sing": "歌=song, 歌曲=song",
    "play": "球=ball",
    "eat": "零食=snack, 点心=snack, 早饭=breakfast, 早餐=breakfast, 午饭=lunch, 午餐=lunch, 便当=lunch,"
           "晚饭=dinner, 晚餐=dinner, 面包=bread, 麵包=bread",
    "drink": "茶=tea, 红茶=tea, 咖啡=coffee, 牛奶=milk, 果汁=juice, 可可=cocoa",
    "read": "书=book, 书本=book, 小说=book, 信=letter, 地图=map",
    "write": "作业=homework, 笔记=note",
    "climb": "梯子=ladder",
    "stretch": "哈欠=yawn, 体操=exercise",
    "punch": "功夫=karate",
    "shiver": "冷=cold, 寒冷=cold",
    "think": "梦=dream",
    "carry": "包裹=parcel, 箱子=package, 盒子=package",
}
"""Chinese names of the things a motion's phrases name (a seat, a book, tea), by that motion."""

INSTRUMENT_VERBS = "弹=play, 演奏=play, 弹奏=play, 弹琴=play piano, 打鼓=play drum, 敲鼓=play drum"
INSTRUMENT_NOUNS = (
    "吉他=guitar, 钢琴=piano, 小提琴=violin, 大提琴=cello, 架子鼓=drum, 鼓=drum, 笛子=flute, 长笛=flute,"
    "口琴=harmonica, 尤克里里=ukulele, 竖琴=harp, 萨克斯=saxophone, 小号=trumpet,"
    "二胡=instrument, 古筝=instrument, 琵琶=instrument, 乐器=instrument"
)
"""Instruments and the verbs they are played with (弹吉他, 拉小提琴, 打鼓): no motion of the world,
shown as singing, said, as the English "plays the guitar" is
(:data:`~studio.engines.sketch.vocabulary.INSTRUMENTS`). Not offered as words of a motion."""

PLACE_GROUPS: dict[str, str] = {
    "sky": "天空=sky, 夜空=night sky, 天上=sky, 蓝天=sky, 空中=midair, 云=cloud, 云朵=cloud, 高空=high sky",
    "countryside": "乡下=countryside, 乡村=countryside, 田园=countryside, 田野=field, 农场=farm, 农田=farmland,"
                   "麦田=wheat field, 山丘=hill",
    "town": "城镇=town, 小镇=town, 镇=town, 城市=city, 市场=market, 集市=market, 广场=plaza, 村子=village,"
            "村庄=village, 村=village, 市中心=downtown",
    "grass": "草原=meadow, 草地=lawn, 草坪=lawn, 草丛=grass, 草=grass",
    "street": "路=road, 道路=road, 马路=road, 街=street, 大街=street, 街道=street, 小巷=alley, 巷子=alley,"
              "胡同=alley, 人行道=sidewalk, 斑马线=crosswalk, 十字路口=crossing, 路口=crossing, 林荫道=avenue",
    "bedroom": "房间=room, 卧室=bedroom, 寝室=bedroom, 家=home, 家里=home, 阁楼=attic, 床=bed, 床上=bed,"
               "屋里=indoors, 室内=indoors, 客厅=living room",
    "forest": "森林=forest, 树林=wood, 林子=wood, 树=tree, 树木=tree, 丛林=jungle",
    "beach": "海滩=beach, 沙滩=beach, 海边=seaside, 海岸=coast, 海湾=bay, 沙子=sand",
    # a harbour is drawn as the sea's edge
    "sea": "海=sea, 大海=sea, 海洋=ocean, 海浪=ocean, 港口=harbour, 港=harbour, 码头=pier, 船=boat",
    "bakery": "面包店=bakery, 面包房=bakery, 麵包店=bakery, 麵包房=bakery, 蛋糕店=pastry shop, 商店=shop,"
              "店=shop, 小店=shop, 店铺=store,"
              "小卖部=store",
    "station": "车站=station, 火车站=station, 地铁站=subway station, 公交站=bus stop, 公交车站=bus stop,"
               "站台=platform, 月台=platform, 火车=railway, 铁路=railway, 铁轨=railway, 地铁=subway",
    "park": "公园=park, 游乐场=playground, 秋千=swing, 喷泉=fountain",
    "river": "河=river, 江=river, 河流=river, 小河=stream, 小溪=stream, 溪=stream, 桥=bridge, 湖=lake, 池塘=pond,"
             "河边=riverside, 江边=riverside, 河岸=riverbank, 运河=canal",
    "mountain": "山=mountain, 高山=mountain, 山上=mountain, 群山=mountains, 悬崖=cliff, 山顶=summit, 顶峰=peak,"
                "山坡=mountainside, 山腰=mountainside",
    "school": "学校=school, 校园=campus, 操场=schoolyard, 高中=school, 初中=school, 中学=school, 小学=school,"
              "大学=campus, 校门=school gate, 上学=school",
    "classroom": "教室=classroom, 课堂=classroom, 上课=lesson, 黑板=blackboard",
    "cafe": "咖啡馆=cafe, 咖啡厅=cafe, 咖啡店=coffee shop, 餐厅=restaurant, 饭店=restaurant, 饭馆=restaurant,"
            "食堂=diner, 茶馆=tea house",
    "kitchen": "厨房=kitchen, 灶台=stove, 炉子=stove",
    "library": "图书馆=library, 图书室=library, 书店=bookstore, 书架=bookshelf, 书房=study room",
    "rooftop": "屋顶=rooftop, 楼顶=rooftop, 天台=rooftop, 房顶=roof, 阳台=balcony, 露台=terrace",
    "shrine": "神社=shrine, 寺=temple, 寺庙=temple, 寺院=temple, 庙=temple, 鸟居=torii, 塔=pagoda",
    "garden": "花园=garden, 庭院=garden, 院子=garden, 花田=flower garden, 花=flower, 温室=greenhouse, 后院=backyard",
}
"""A Chinese word for each place of :data:`~studio.engines.sketch.vocabulary.LOCATIONS`, by the place it is drawn as."""

UNDRAWN_PLACES = (
    "机场=airport, 飞机场=airport, 医院=hospital, 城堡=castle, 岛=island, 小岛=island, 沙漠=desert,"
    "火山=volcano, 山洞=cave,"
    "洞穴=cave, 雪=snow, 雪地=snow, 下雪=snow, 太空=space, 宇宙=space, 教堂=church, 博物馆=museum, 美术馆=museum,"
    "动物园=zoo, 公司=office, 办公室=office, 超市=supermarket, 体育场=stadium, 浴室=bathroom, 浴缸=bath,"
    "酒吧=bar, 卫生间=bathroom, 洗手间=bathroom, 厕所=bathroom,"
    "宫殿=palace, 王宫=palace, 商场=mall, 购物中心=mall"
)
"""Places not drawn, read as their English word so that the warning names their stand-in."""

TIME_GROUPS: dict[str, str] = {
    time: ", ".join(f"{word.written}={word.english}" for word in time_words("zh") if word.shown == time)
    for time in dict.fromkeys(word.shown for word in time_words("zh"))
}
"""A Chinese word for each time of day (day, sunset, night), by the light it is drawn in, in
Simplified characters: the core's list (:data:`~studio.core.instruction.CJK_TIME_WORDS`)."""

CAMERA_GROUPS: dict[str, str] = {
    "static": "固定=static, 固定镜头=static, 静止=static, 定镜=fixed, 三脚架=tripod, 远景=wide, 全景=wide shot,"
              "广角=wide",
    # "truck" has no word of its own: 横移 and 平移 are read as it
    "pan": "摇镜=pan, 摇镜头=pan, 横摇=pan, 摇摄=pan, 平移=truck, 横移=truck, 俯仰=tilt, 滑动=slide",
    "follow": "跟随=follow, 跟拍=follow, 跟镜头=follow, 追随=follow, 追=chase, 跟踪=track, 追踪=track, 推轨=dolly",
    "zoom": "变焦=zoom, 推近=zoom in, 放大=zoom in, 推镜头=push in, 拉远=zoom out, 缩小=zoom out, 拉镜头=zoom out,"
            "特写=close up, 近景=close",
    "orbit": "环绕=orbit, 环拍=orbit, 绕拍=orbit, 围绕=around, 旋转=rotate, 转圈=circle",
}
"""A Chinese word for each camera move of :data:`~studio.engines.sketch.vocabulary.CAMERA_PHRASES`."""

STAND_IN_WORDS = (
    "滑冰=skate, 溜冰=skate, 杂耍=juggle, 抛接球=juggle, 滑雪=ski, 冲浪=surf, 瑜伽=yoga, 躲=hide, 躲藏=hide"
)
"""Activities the world has no motion for, read as the English words for them, which the reader
shows as a motion near them, said (:data:`~studio.engines.sketch.vocabulary.UNKNOWN_MOTION_HINTS`:
滑冰 as "skates" is). Not offered as words of a motion."""

ADVERB_GROUPS: dict[int, str] = {
    1: "慢慢=slowly, 缓缓=slowly, 缓慢=slowly, 慢=slowly, 轻轻=gently, 温柔=gently, 柔和=softly, 轻柔=softly,"
       "懒洋洋=lazily, 懒懒=lazily, 困倦=sleepily, 睡眼惺忪=sleepily, 疲惫=tiredly",
    2: "悠闲=leisurely, 悠然=leisurely, 平静=calmly, 冷静=calmly, 小心=carefully, 小心翼翼=carefully,"
       "谨慎=carefully, 安静=quietly, 静静=quietly, 悄悄=quietly, 害羞=shyly, 羞涩=shyly, 悲伤=sadly, 紧张=nervously,"
       "不安=nervously, 轻快=lightly, 轻盈=lightly, 随意=casually, 随便=casually, 好奇=curiously",
    3: "平常=normally, 正常=normally, 流畅=smoothly, 平稳=steadily, 稳稳=steadily, 开心=happily, 高兴=happily,"
       "快乐=happily, 愉快=happily, 骄傲=proudly, 自豪=proudly, 欢快=cheerfully, 愉悦=joyfully, 优雅=gracefully,"
       "笨拙=clumsily, 调皮=playfully, 顽皮=playfully",
    4: "快=quickly, 快速=quickly, 迅速=rapidly, 飞快=swiftly, 赶紧=hastily, 匆匆=hastily, 急忙=hurriedly,"
       "匆忙=hurriedly, 兴奋=excitedly, 激动=excitedly, 热情=eagerly, 愤怒=angrily, 气冲冲=angrily, 大胆=boldly,"
       "勇敢=boldly",
    5: "拼命=frantically, 疯狂=madly, 猛烈=fiercely, 激烈=wildly, 狂野=wildly, 使劲=vigorously, 用力=powerfully,"
       "全力=powerfully, 有力=powerfully, 精力充沛=energetically, 充满活力=energetically, 元气满满=energetically",
}
"""Chinese adverbs for each level of :data:`~studio.engines.sketch.vocabulary.ADVERB_LEVELS`."""

OTHER_WORDS = (
    "飞机=aeroplane, 跑车=sports car, 走廊=corridor, 笑话=joke, 说明=explain, 打开=open, 打算=plan, 打扮=dress,"
    "打工=work, 游客=tourist, 旅游=travel, 看来=seem, 看起来=seem, 好看=pretty, 想法=idea, 想要=want, 问题=question,"
    "叫做=called, 接着=then, 接下来=next, 直接=directly, 连接=connect, 迎接=welcome, 抱怨=complain, 心跳=heartbeat,"
    "睡衣=pyjamas, 扫描=scan, 投票=vote, 丢失=lose, 上海=Shanghai, 大家=everyone, 画面=picture, 海报=poster,"
    "海鲜=seafood, 海关=customs, 花钱=spend, 指导=guide, 等等=and so on, 登记=register, 过去=past, 出去=out,"
    "回去=back, 进去=in, 不想=not want, 不要=do not, 子弹=bullet, 弹簧=spring, 炸弹=bomb, 弹性=elastic"
)
"""Words that hold a word of ours but are another thing (飞机 holds 飞, fly): read as written,
never as the word inside them (their English is only a note for the reader of this list)."""


def _groups(groups: Iterable[str], kind: str) -> tuple[ChineseWord, ...]:
    return tuple(word for pairs in groups for word in _words(pairs, kind))


MOTION_WORDS = _groups(MOTION_GROUPS.values(), "verb")
THING_WORDS = _groups(THING_GROUPS.values(), "noun")
INSTRUMENT_WORDS = (*_words(INSTRUMENT_VERBS, "verb"), *_words(INSTRUMENT_NOUNS, "noun"))
PLACE_WORDS = (*_groups(PLACE_GROUPS.values(), "noun"), *_words(UNDRAWN_PLACES))
TIME_WORDS = tuple(ChineseWord(form, word.english, "noun") for word in time_words("zh")
                   for form in dict.fromkeys((word.written, word.traditional)))
"""Each time word in Simplified and in Traditional, as the core lists them."""
CAMERA_WORDS = _groups(CAMERA_GROUPS.values(), "verb")
ADVERB_WORDS = _groups(ADVERB_GROUPS.values(), "adverb")
_OTHER = _words(OTHER_WORDS, "other")


def _table(*groups: Iterable[ChineseWord]) -> dict[str, tuple[ChineseWord, ...]]:
    """The words of ``groups`` by their first character, longest first; a word already in an
    earlier group keeps that group's reading (旋转 is a spin in a turn, an orbit for the camera)."""
    seen: dict[str, ChineseWord] = {}
    for group in groups:
        for word in group:
            seen.setdefault(word.written, word)
    by_first: dict[str, list[ChineseWord]] = {}
    for word in seen.values():
        by_first.setdefault(word.written[0], []).append(word)
    return {first: tuple(sorted(words, key=lambda w: -len(w.written))) for first, words in by_first.items()}


TEXT_TABLE = _table(_OTHER, ADVERB_WORDS, MOTION_WORDS, THING_WORDS, INSTRUMENT_WORDS, _words(STAND_IN_WORDS),
                    TIME_WORDS, PLACE_WORDS, CAMERA_WORDS)
"""What a Motion field or free text is read with: everything."""
PLACE_TABLE = _table(_OTHER, TIME_WORDS, PLACE_WORDS, MOTION_WORDS, THING_WORDS)
"""What a Background field is read with: places and times first."""
TIME_TABLE = _table(TIME_WORDS)
CAMERA_TABLE = _table(CAMERA_WORDS)
ADVERB_TABLE = _table(ADVERB_WORDS)

WORD_STARTS = frozenset("在着著了过過正不没沒也都就又还還再来來到往向从從要会會能他她它我你们們的地得很和与與跟同"
                        "把被给給让讓请請个個一里裡上下进進出回")
"""Characters after which a word of one character may start (in, particles, pronouns, "and"):
"在海里" is the sea, "他跑" runs; after another Han character it is part of a longer word ("上海")."""
_NEGATIVE_BEFORE = re.compile(r"(?:不|没有?|沒有?|别|別|未|甭|莫)(?:要|想|会|會|能|肯|敢|再|在|正在)?$")
"""What says the motion after it is not done: 不跑, 没有跑, 别跑, 不想跑, 没在跑."""
_AFTER_VERB = "着著了过過"
"""Aspect particles after a verb (跑着, 跑了, 跑过): read as part of it."""
_AFTER_ADVERB = "地的"
"""What follows an adverb (慢慢地, 开心的): read as part of it."""
_AT_PLACE_BEFORE = "在到去往向從从爬登"
_AT_PLACE_AFTER = "里裡边邊上中旁"
"""What is written around a place (在海里, 去海, 爬山): a name of the cast written so is that place."""


def _is_han(ch: str) -> bool:
    return "\u4e00" <= ch <= "\u9fff" or "\u3400" <= ch <= "\u4dbf" or "\uf900" <= ch <= "\ufaff"


def has_han(text: str) -> bool:
    """Whether ``text`` holds a Han character."""
    return any(_is_han(ch) for ch in text)


def _may_start(text: str, start: int, boundary: bool, word: ChineseWord) -> bool:
    """Whether ``word`` written at ``start`` of ``text`` is that word: a verb, or a word of more
    than one character, always (the longest word was looked up first); a word of one character
    that is no verb only where a word may start (see :data:`WORD_STARTS`)."""
    if word.kind in ("verb", "other") or len(word.written) > 1 or start == 0 or boundary:
        return True
    before = text[start - 1]
    return not _is_han(before) or before in WORD_STARTS


def _word_at(text: str, start: int, boundary: bool,
             table: Mapping[str, tuple[ChineseWord, ...]]) -> ChineseWord | None:
    """The longest word of ``table`` (or of :data:`OTHER_WORDS`) written at ``start`` of ``text``."""
    for word in (*table.get(text[start], ()), *_OTHER_TABLE.get(text[start], ())):
        if text.startswith(word.written, start) and _may_start(text, start, boundary, word):
            return word
    return None


_OTHER_TABLE = _table(_OTHER)


def _name_at(text: str, start: int, names: tuple[str, ...]) -> str:
    return next((name for name in names if text.startswith(name, start)), "")


def _a_place_here(name: str, word: ChineseWord | None, text: str, start: int) -> bool:
    """Whether the cast member's ``name`` at ``start`` is ``word``, a place, written as one:
    after 在, 到, 去... or before 里, 边, 上... ("在海里游泳" swims in the sea, even with a 海 in
    the cast; "海在游泳" is 海 swimming)."""
    if word is None or word.written != name or word.kind != "noun":
        return False
    end = start + len(name)
    return (start > 0 and text[start - 1] in _AT_PLACE_BEFORE) or (end < len(text) and text[end] in _AT_PLACE_AFTER)


def in_english_words(text: str, table: Mapping[str, tuple[ChineseWord, ...]] = TEXT_TABLE,
                     names: Iterable[str] = ()) -> str:
    """``text`` with the Chinese words of ``table`` put into their English words, spaced apart
    ("晚上在公园" -> "night 在 park"); ``names`` are kept as written, spaced apart from what is
    around them. A motion said not to be done ("不跑") is read "not run," (a negation ends at the
    comma). A text with no Chinese word of ours comes back as it is."""
    if not has_han(text):
        return text
    written = tuple(sorted({n for n in names if n and has_han(n)}, key=len, reverse=True))
    out: list[str] = []
    found = spaced = boundary = False
    i = 0
    meanwhile: list[str] = []  # what is done while the motion of the sentence is ("哭着"): said after it
    while i < len(text):
        name = _name_at(text, i, written)
        word = _word_at(text, i, boundary, table)
        if name and not (word is not None and len(word.written) > len(name)) and not _a_place_here(name, word, text, i):
            out.append(f" {name} ")
            i += len(name)
            spaced = boundary = True
            continue
        if word is None or word.kind == "other":
            shown = word.written if word is not None else text[i]
            if shown in SENTENCE_ENDS:
                out += meanwhile
                meanwhile = []
            out.append(shown)
            i += len(shown)
            boundary = word is not None
            continue
        found = boundary = True
        negation = _NEGATIVE_BEFORE.search(text[:i]) if word.kind == "verb" else None
        negated = negation is not None
        if negation is not None and "".join(out).endswith(negation.group(0)):  # 不跑: "not run", said once
            out = ["".join(out)[:-len(negation.group(0))]]
        i += len(word.written)
        if word.kind == "verb":
            doing = i < len(text) and text[i] in "着著" and not negated
            i += 1 if i < len(text) and text[i] in _AFTER_VERB else 0
            if doing and _a_verb_follows(text, i, table):  # "哭着跑回家": the run is shown, the crying is how
                meanwhile.append(f" while {word.english} ")
                continue
        elif word.kind == "adverb":
            i += 1 if i < len(text) and text[i] in _AFTER_ADVERB else 0
        out.append(f" not {word.english}, " if negated else f" {word.english} ")
    return re.sub(r" {2,}", " ", "".join(out + meanwhile)).strip() if found or spaced else text


SENTENCE_ENDS = frozenset("。．.!?！？\n")
"""Where a sentence ends: what is done meanwhile (哭着) is said before it, after the sentence's motion."""


def _a_verb_follows(text: str, start: int, table: Mapping[str, tuple[ChineseWord, ...]]) -> bool:
    """Whether a verb of ours comes next in ``text`` from ``start``, before the sentence ends:
    "哭着跑" is running crying; "她一直哭着。" only cries."""
    for i in range(start, len(text)):
        if text[i] in SENTENCE_ENDS or text[i] in "，,;；":
            return False
        word = _word_at(text, i, True, table)
        if word is not None and word.kind == "verb":
            return True
    return False


def understood(text: str, table: Mapping[str, tuple[ChineseWord, ...]] = TEXT_TABLE) -> int:
    """How many Chinese words of ours ``text`` holds (names not counted)."""
    count, i, boundary = 0, 0, False
    while i < len(text):
        word = _word_at(text, i, boundary, table)
        boundary = word is not None
        count += word is not None and word.kind != "other"
        i += len(word.written) if word is not None else 1
    return count


_FIELD_TABLES: dict[str, Mapping[str, tuple[ChineseWord, ...]]] = {
    "motion": TEXT_TABLE, "free_text": TEXT_TABLE, "background": PLACE_TABLE, "time_of_day": TIME_TABLE,
    "camera": CAMERA_TABLE, "adverb": ADVERB_TABLE,
}
"""Which words each field of an instruction is read with (the Character field is a name: never read)."""


def _as_read(value: str) -> str:
    """One field as its Chinese words are looked up: NFKC-normalised when it holds Han characters
    (full-width letters and digits become plain ones, as the English reader reads them)."""
    return unicodedata.normalize("NFKC", value) if has_han(value) else value


def is_chinese(instr: Instruction) -> bool:
    """Whether ``instr`` may be read as Chinese: it says so (:func:`~studio.core.sentence.marked_chinese`),
    or it is Han characters without kana nor kanji only Japanese writes, and holds Chinese words
    of ours. (A turn that does not say so is read as Chinese only where more of it is understood
    so than in Japanese: the caller decides, see
    :func:`~studio.engines.sketch.understanding.turn_in_english`.)"""
    if marked_chinese(instr):
        return True
    raw = instr.raw
    if not has_han(raw) or any("\u3040" <= ch <= "\u30ff" or ch in JAPANESE_ONLY_CHARS for ch in raw):
        return False
    return any(understood(_as_read(getattr(instr, f)), table) for f, table in _FIELD_TABLES.items())


def han_read(instr: Instruction, english: Instruction) -> int:
    """How many Han characters of ``instr``'s fields its English reading ``english`` put into
    English words: how much of it was understood (the Chinese and the Japanese reading of a turn
    of Han characters are weighed with it; names are kept as written in both)."""
    def han(value: Instruction) -> int:
        return sum(_is_han(ch) for field_name in _FIELD_TABLES for ch in _as_read(getattr(value, field_name)))
    return han(instr) - han(english)


def in_english(instr: Instruction, names: Iterable[str] = ()) -> Instruction:
    """``instr`` with the Chinese words of its fields put into English (:func:`in_english_words`),
    ``names`` kept as written; the same instruction when it has no Chinese word of ours. Give it
    the instruction as read (each field held to its limit as written), as for
    :func:`~studio.engines.sketch.japanese.in_english`.

    A Background field that is one of ``names`` and nothing else is read as a place: the field
    says where, so 海 there is the sea even with someone called 海 in the cast."""
    return fields_in_english(instr, names, _FIELD_TABLES, _as_read, in_english_words)
